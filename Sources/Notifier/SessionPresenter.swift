import EngramCore
import Foundation

/// Where a capture session is, beyond what the store records: the store knows running and completed,
/// the capturing process knows when it is processing.
public enum CapturePhase: Sendable, Equatable {
    /// Taking lines.
    case capturing
    /// Input is done; captures are being indexed and auto-linked (done of total outbox entries).
    case processing(done: Int, total: Int)
}

/// What the capturing process knows about a capture session that the store does not.
public struct CaptureNotes: Sendable, Equatable {
    /// The phase.
    public var phase: CapturePhase = .capturing
    /// The title of the last memory captured.
    public var lastMemoryTitle: String?
    /// The id of the last memory captured, for Open.
    public var lastMemoryID: String?
    /// Whether processing linked the captures (false: they are saved and the daemon links them in a moment).
    public var linked: Bool?

    /// Creates notes.
    public init(phase: CapturePhase = .capturing, lastMemoryTitle: String? = nil, lastMemoryID: String? = nil, linked: Bool? = nil) {
        self.phase = phase
        self.lastMemoryTitle = lastMemoryTitle
        self.lastMemoryID = lastMemoryID
        self.linked = linked
    }
}

/// Turns a session from the store into what its live activity shows.
public enum SessionPresenter {
    /// The content for `session` at `now`; `notes` add what only the capturing process knows.
    public static func content(for session: Session, now: Date, notes: CaptureNotes? = nil) -> ActivityContent {
        switch session.kind {
        case .learning: return learning(session, now: now)
        case .capture: return capture(session, notes: notes ?? CaptureNotes())
        }
    }

    static func learning(_ s: Session, now: Date) -> ActivityContent {
        let status: String
        let buttons: [ActivityButton]
        switch s.state {
        case .running: status = "Studying"; buttons = [ActivityButton(.pause), ActivityButton(.stop), ActivityButton(.open)]
        case .paused: status = "Paused"; buttons = [ActivityButton(.resume), ActivityButton(.stop), ActivityButton(.open)]
        case .stopped: status = "Stopped"; buttons = [ActivityButton(.open)]
        case .completed: status = "Complete"; buttons = [ActivityButton(.open)]
        }
        let time = DurationText.short(seconds: s.elapsed(at: now))
        var detail = s.progressTotal > 0 ? "\(s.progressDone) of \(s.progressTotal) topics done · \(time)" : time
        if s.state == .completed { detail = "All \(s.progressTotal) topics done in \(time)" }
        let link = s.topicID.map { DeepLink.topic(id: $0).url } ?? s.curriculumID.map { DeepLink.curriculum(id: $0).url }
        return ActivityContent(
            title: s.title, status: status, details: [detail],
            progress: s.progressTotal > 0 ? .init(done: s.progressDone, total: s.progressTotal) : nil,
            buttons: buttons, openLink: link)
    }

    static func capture(_ s: Session, notes: CaptureNotes) -> ActivityContent {
        let count = s.progressDone
        let memories = "\(count) memor\(count == 1 ? "y" : "ies")"
        var status: String
        var details: [String]
        var progress: ActivityContent.Progress?
        var buttons: [ActivityButton] = []
        switch (s.state, notes.phase) {
        case (.running, .capturing), (.paused, .capturing):
            status = s.state == .paused ? "Paused" : "Capturing"
            details = ["\(memories) so far"]
            buttons = [ActivityButton(.stop, "Done")]
        case (.running, .processing(let done, let total)), (.paused, .processing(let done, let total)):
            status = "Processing"
            details = ["\(memories) · linking related memories"]
            progress = total > 0 ? .init(done: done, total: total) : nil
        case (.completed, _):
            status = "Complete"
            switch notes.linked {
            case true?: details = ["\(memories) saved and linked"]
            case false?: details = ["\(memories) saved; linking them in a moment"]
            case nil: details = ["\(memories) saved"]
            }
        case (.stopped, _):
            // Its process ended before its input did (killed, crashed): what it captured is kept.
            status = "Interrupted"
            details = ["\(memories) saved"]
        }
        let link = notes.lastMemoryID.map { DeepLink.memory(id: $0).url }
        if link != nil { buttons.append(ActivityButton(.open)) }
        return ActivityContent(title: s.title, status: status, details: details, quote: notes.lastMemoryTitle,
                               progress: progress, buttons: buttons, openLink: link)
    }
}
