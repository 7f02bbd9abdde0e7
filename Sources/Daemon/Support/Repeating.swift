/// Runs `body` every `interval` (the first time after `first`, by default `interval`) until the calling task is
/// cancelled: the daemon's services run their timers with it inside `cancelOnGracefulShutdown`.
func repeating(every interval: Duration, first: Duration? = nil, _ body: @Sendable () async -> Void) async {
    var wait = first ?? interval
    while true {
        do {
            try await Task.sleep(for: wait, tolerance: wait / 10)
        } catch {
            return
        }
        await body()
        wait = interval
    }
}
