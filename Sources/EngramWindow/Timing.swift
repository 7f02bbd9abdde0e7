import CGtk
import Foundation
import GtkKit

/// What `make bench` reads from the window (ENGRAM_APP_TIMING=1): when results were first painted, and for each
/// keystroke how long from the entry's change to the updated list painted, with the search's own share. Times are
/// CLOCK_MONOTONIC milliseconds, the clock the bench's `time.monotonic()` reads, so launch time is measured from
/// before the process was started. Nothing is written otherwise.
enum Timing {
    static let enabled = ProcessInfo.processInfo.environment["ENGRAM_APP_TIMING"] == "1"

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1_000_000
    }

    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Calls `fn` once, after the next frame of `widget`'s window is painted.
    static func afterPaint(_ widget: Widget, _ fn: @escaping () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(widget) else {
            Main.async(fn)
            return
        }
        final class Once { var id: UInt = 0 }
        let once = Once()
        once.id = Signal.connect(clock, "after-paint") {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), gulong(once.id))
            fn()
        }
        gtk_widget_queue_draw(widget)
    }
}

/// The window's bare bones for the bench's baseline (ENGRAM_APP_BARE=1): the same toolkit, header bar, search entry
/// and list, no library opened, nothing searched; it reports its first painted frame as the window does.
enum BareWindow {
    static func present(_ app: UnsafeMutablePointer<AdwApplication>) {
        let window = adw_application_window_new(cast(raw(app)))!
        gtk_window_set_title(window.as(), "Engram")
        gtk_window_set_default_size(window.as(), 900, 700)
        let header = adw_header_bar_new()!
        let entry = gtk_search_entry_new()!
        let list = gtk_list_box_new()!
        adw_application_window_set_content(window.as(), Make.box(true, spacing: 0, [header, entry, Make.scrolled(list)]))
        gtk_window_present(window.as())
        Timing.afterPaint(list) { Timing.write("painted rows=0 first= t=\(Timing.now())") }
    }
}
