# One line of each ibsim console command, in the syntax ibsim's own "help"
# prints (ibsim 0.12 sim_cmd.c dump_help()), for net-examples/net.2sw2path4hca.
# ibsim's repository ships no console script; this one is written from that
# help text and must run unchanged on ibsim 0.10 and on ibfabric
# (test/conformance/test_ibsim_console.py runs it on both).
Start
Dump "Switch1"
Verbose
Verbose 1
Verbose 0
Attached
PerformanceSet "Switch1"[3] PortCounters.SymbolErrorCounter=250
PerformanceSet "Switch1"[3] PortCounters.LinkDownedCounter=3
Error "Hca4"[1] 0
Baselid "Hca4"[1] 40
Unlink "Switch2"[5]
Wait 1
Unlink "Hca3"
Link "Switch1"[4] "Switch2"[4]
Unlink "Switch1"[4]
Clear "Hca2"[1]
Guid "Hca4" 0x77000
ReLink "Switch2"[5]
ReLink "Hca3"
ReLink "Hca2"[1]
