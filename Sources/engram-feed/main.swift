#if canImport(Glibc)
import Glibc
#endif
import Feeds

// Bars may send real-time signals before parsing is done; ignore them from the first instruction.
FeedSignals.ignoreForOneShot()
exit(FeedMain.run(arguments: Array(CommandLine.arguments.dropFirst()), commandName: "engram-feed"))
