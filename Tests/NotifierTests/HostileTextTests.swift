import DBus
import EngramCore
import EngramTestSupport
import Foundation
import Testing
@testable import Notifier

@Suite(.serialized) struct HostileTextTests {
    static let markup = #"<b>bold</b> & <span foreground="red">red</span> &amp; <i"#
    static let conky = "${exec rm -rf ~} $(whoami) %{F#f00}red%{F-} `id`"
    static let controls = "tab\there\u{1B}[31mansi\u{7}bell\u{202E}desrever\u{0}nul"
    static let long = String(repeating: "very long memory ", count: 700)
    static let unicode = "naïve café 🧠 e\u{301} 日本語"

    /// Each hostile text as the last captured memory, on a server with and without body markup.
    @Test("Hostile text shows literally: escaped where markup is on, plain where off, never breaking Notify",
          arguments: [true, false])
    func hostileQuotes(markup: Bool) async throws {
        let bus = try PrivateBus()
        let daemon = try MockNotificationDaemon(bus: bus, capabilities: markup ? "body body-markup" : "body")
        let connection = try bus.connect()
        let server = try DBusNotificationServer(connection: connection)
        let surface = NotificationSurface(server: server, renderer: NotificationRenderer(stackTag: "hostile"))

        let texts = [Self.markup, Self.conky, Self.controls, Self.long, Self.unicode]
        for text in texts {
            await surface.present(ActivityContent(title: text, status: "Capturing", details: ["1 memory so far"], quote: text),
                                  as: .transition)
        }
        let calls = try daemon.notifications()
        #expect(calls.count == texts.count, "every Notify went through")
        #expect(await surface.notificationID == 1, "and the server answered each")

        func body(_ quote: String) -> String {
            markup ? "1 memory so far\n<i>“\(quote)”</i>" : "1 memory so far\n“\(quote)”"
        }
        try #require(calls.count >= 5)
        #expect(calls[0].summary == #"<b>bold</b> & <span foreground="red">red</span> &amp; <i — Capturing"#,
                "the summary is plain text: never escaped, never interpreted")
        #expect(calls[0].body == body(markup
            ? #"&lt;b&gt;bold&lt;/b&gt; &amp; &lt;span foreground="red"&gt;red&lt;/span&gt; &amp;amp; &lt;i"#
            : Self.markup))
        #expect(calls[1].body == body(markup ? "${exec rm -rf ~} $(whoami) %{F#f00}red%{F-} `id`" : Self.conky),
                "no shell or widget syntax is touched: notifications run nothing")
        #expect(calls[2].body == body("tab here [31mansi belldesrever nul"), "control characters and bidi overrides are gone")
        #expect(calls[3].summary.count <= NotificationRenderer.summaryLimit + " — Capturing".count)
        #expect(calls[3].body.hasSuffix(markup ? "…”</i>" : "…”"), "a very long memory is cut, with an ellipsis")
        #expect(calls[3].body.count < 300)
        #expect(calls[4].body == body(Self.unicode))
        daemon.stop()
        connection.close()
        bus.stop()
    }

    @Test("A hostile multi-line memory captured in a session shows its first line literally")
    func hostileCapture() async throws {
        let bus = try PrivateBus()
        let daemon = try MockNotificationDaemon(bus: bus, capabilities: "body body-markup actions")
        let connection = try bus.connect()
        let server = try DBusNotificationServer(connection: connection)
        let dir = TempDir()
        let store = try makeStore(dir)
        let capture = try LiveCapture(store: store, title: "Capture <all> & sundry") { session in
            LiveSession(store: store, scope: .session(id: session.id), options: fastOptions(),
                        surfaces: LiveSurfaces.notifications(server))
        }
        let runner = Task { await capture.live!.run() }
        try await capture.capture("  <script>alert(1)</script> & ${exec id}\nsecond line\n")
        _ = await eventually { try daemon.notifications().last?.body.contains("script") == true }
        let shown = try #require(try daemon.notifications().last)
        #expect(shown.summary == "Capture <all> & sundry — Capturing")
        #expect(shown.body == "1 memory so far\n<i>“&lt;script&gt;alert(1)&lt;/script&gt; &amp; ${exec id}”</i>")
        #expect(try store.recentMemories(limit: 1).first?.content == "<script>alert(1)</script> & ${exec id}\nsecond line",
                "the memory itself is stored as typed")
        _ = try await capture.finish { _ in true }
        await runner.value
        #expect(try daemon.notifications().last?.summary == "Capture <all> & sundry — Complete")
        daemon.stop()
        connection.close()
        bus.stop()
    }
}
