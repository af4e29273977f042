import CLibFuzzer
import Glibc

// libFuzzer runs as a library under SwiftPM's main(): it parses its own flags from the command
// line (-max_total_time=..., corpus folders) and calls `fuzzCommands` with each input.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzCommands(data, size) })
