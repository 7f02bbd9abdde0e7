/// Computes feeds: the one entry point bars, the CLI and the daemon share.
public enum Feeds {
    /// The feed `request` asks for, read from `source` at `env.now`; failures become an `.error` result, never a throw.
    public static func build(_ request: FeedRequest, from source: FeedSource, in env: FeedEnvironment) -> FeedResult {
        guard env.config.feedsEnabled else {
            return quiet(request, .disabled, context: nil, at: env.now,
                         "feeds are turned off in config.toml ([privacy] feeds = false)")
        }
        do {
            return try source.read {
                let stored = try source.setting("context")
                let context = (stored?.isEmpty ?? true) ? nil : stored
                if context == "sleep" {
                    return quiet(request, .sleep, context: context, at: env.now,
                                 "the sleep context is on: feeds are quiet. `engram context clear` turns it off.")
                }
                let scope = FeedScope(source: source, env: env, context: context, request: request)
                switch request.name {
                case .motd: return try MotdFeed.build(scope)
                case .stats: return try StatsFeed.build(scope)
                case .session: return try SessionFeed.build(scope)
                case .review: return try ReviewFeed.build(scope)
                case .recent: return try RecentFeed.build(scope)
                }
            }
        } catch let e as FeedSourceError {
            return failure(request, e, at: env.now)
        } catch {
            return failure(request, FeedSourceError(.unreadable, "cannot read the store: \(error)"), at: env.now)
        }
    }

    /// The result for a store that could not be opened or read.
    public static func failure(_ request: FeedRequest, _ error: FeedSourceError, at now: Double) -> FeedResult {
        if error.kind == .missing { return quiet(request, .missing, context: nil, at: now, error.message) }
        let view = FeedView(text: "⚠", block: ["⚠ " + DisplayText.line(error.message)], tooltip: [DisplayText.line(error.message)],
                            alt: "error", classes: [FeedState.error.rawValue], color: FeedColor.error)
        return FeedResult(feed: request.name, size: request.size, state: .error, context: nil, generated: now,
                          message: error.message, view: view, payload: .none)
    }

    /// A result that shows nothing on a bar and says why elsewhere.
    static func quiet(_ request: FeedRequest, _ state: FeedState, context: String?, at now: Double, _ message: String,
                      payload: FeedPayload = .none) -> FeedResult {
        let view = FeedView(text: "", block: [], tooltip: [DisplayText.line(message)], alt: state.rawValue,
                            classes: [state.rawValue], color: FeedColor.quiet)
        return FeedResult(feed: request.name, size: request.size, state: state, context: context, generated: now,
                          message: message, view: view, payload: payload)
    }
}

/// One feed computation: the source, the environment, the active context and the request.
struct FeedScope {
    let source: FeedSource
    let env: FeedEnvironment
    let context: String?
    let request: FeedRequest

    var size: FeedSize { request.size }

    /// Every memory in the active context.
    func facts() throws -> [MemoryFacts] {
        let all = try source.memoryFacts()
        guard let context else { return all }
        return all.filter { $0.context == context }
    }

    /// The details of memories `ids`, in order.
    func details(_ ids: [String]) throws -> [MemoryDetail] {
        try source.memories(ids: ids).map { MemoryDetail($0, decay: env.decay, now: env.now) }
    }

    /// A result for this request.
    func result(_ state: FeedState, _ view: FeedView, _ payload: FeedPayload, message: String? = nil) -> FeedResult {
        FeedResult(feed: request.name, size: request.size, state: state, context: context, generated: env.now,
                   message: message, view: view, payload: payload)
    }

    /// A quiet result (nothing on a bar) with a reason.
    func quiet(_ state: FeedState, _ message: String, payload: FeedPayload) -> FeedResult {
        Feeds.quiet(request, state, context: context, at: env.now, message, payload: payload)
    }

    /// "in the work context" or "" — for messages.
    var inContext: String { context.map { " in the \($0) context" } ?? "" }
}
