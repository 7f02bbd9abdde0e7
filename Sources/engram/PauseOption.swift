import ArgumentParser
import Foundation

/// `--pause`: keep a terminal the desktop opened until the person has read it.
struct PauseOption: ParsableArguments {
    @Flag(help: "Wait for Enter before exiting (for terminals opened from GNOME Shell, KRunner or a link).")
    var pause = false

    /// Waits for Enter when asked to and standard input is a terminal.
    func waitIfAsked() {
        guard pause, isatty(0) == 1 else { return }
        Terminal.write("\nPress Enter to close.")
        _ = readLine()
    }
}
