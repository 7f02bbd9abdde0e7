import EngramCore
import Foundation
import Indexer

extension Library {
    /// Handoff through the sync folder, nil when `[sync] folder` is not set.
    public var handoff: Handoff? {
        config.syncFolder.map { Handoff(store: store, root: $0, minutes: config.handoffMinutes) }
    }

    /// Publishes every learning session change this process makes as the device's handoff activity.
    func publishSessionChanges() {
        guard let handoff else { return }
        store.observeSessionChanges { [weak self] s in
            do { try handoff.publish(s) } catch { self?.notice("could not publish the session for your other devices: \(error)") }
        }
    }
}

extension LinkHandler {
    /// Continues here another device's activity: a session is claimed (and resumed here once its origin lets go
    /// of it), a memory is opened. The CLI, links and the daemon's notification all come here.
    func continueHere(_ which: String?) throws -> LinkOutcome {
        guard let handoff = library.handoff else {
            throw EngramError.config("handoff goes through the sync folder: set [sync] folder in config.toml (`engram sync setup`)")
        }
        guard try handoff.ownDevice() != nil else {
            throw EngramError.invalidInput("sync is not on for this device yet: run `engram sync now` once")
        }
        let offer = try handoff.offer(which)
        let from = offer.activity.deviceName
        if offer.kind == .memory {
            var out = try perform(.memory(id: offer.itemID))
            out.sentence = "Opened “\(offer.text)” from \(from)."
            return out
        }
        switch try handoff.claim(offer) {
        case .resumed(let s):
            return LinkOutcome(sentence: "Continuing \(offer.text) here (from \(from)).", session: s)
        case .waiting:
            return LinkOutcome(sentence: "Asked \(from) to hand over \(offer.text); it continues here, from now, as soon as \(from) lets go of it.")
        case .dropped(let why):
            throw EngramError.invalidInput("cannot continue \(offer.text): \(why)")
        case .none:
            throw EngramError.io("the claim on \(offer.text) could not be written to the sync folder")
        }
    }
}
