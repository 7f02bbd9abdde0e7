import EngramWindow
import Intents
import Testing

/// An `intent:` link reaches the window from the desktop entry's actions, and from any program that can call the
/// window's `Open` on the bus: only the argument-free actions run.
struct DesktopActionTests {
    @Test func onlyTheDesktopEntrysActionsRunFromALink() throws {
        for d in IntentCatalog.desktopActionIntents {
            #expect(try WindowData.desktopAction(IntentInvocation(d.name).commandID).name == d.name)
        }
        let refused = [
            IntentInvocation(.forgetMemory, ["memory": "s001", "confirm": "true"]).commandID,
            IntentInvocation(.storeMemory, ["content": "<b>x</b> ${exec touch pwned}"]).commandID,
            IntentInvocation(.dailyReview, ["limit": "500"]).commandID,
            "intent:Nope", "engram://memory/s001",
        ]
        for link in refused {
            #expect(throws: (any Error).self, "\(link)") { try WindowData.desktopAction(link) }
        }
    }
}
