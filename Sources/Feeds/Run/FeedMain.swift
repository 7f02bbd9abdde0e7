/// The command line of `engram-feed` and `engram feed`: parse, then run; returns the exit status.
public enum FeedMain {
    /// Parses `arguments` and runs the feed; `--help` prints the usage, a mistake a sentence and status 64.
    public static func run(arguments: [String], commandName: String) -> Int32 {
        do {
            guard let options = try FeedArguments.parse(arguments) else {
                FeedOutput.line("USAGE: \(commandName) " + FeedArguments.usage)
                return 0
            }
            return FeedRunner.run(options)
        } catch {
            FeedOutput.warn("\(error.message)\nUsage: \(commandName) NAME [--format FORMAT] [--size SIZE] … (see \(commandName) --help)")
            return 64
        }
    }
}
