import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

/// Capture (Ctrl+N): text, type and tags, saved through the store as `engram remember` saves.
final class CaptureDialog {
    unowned let window: MainWindow
    let dialog: Widget
    let text: Widget
    let type: Widget
    let tags: Widget

    init(window: MainWindow) {
        self.window = window
        dialog = adw_window_new()
        gtk_window_set_title(dialog.as(), "New memory")
        gtk_window_set_modal(dialog.as(), 1)
        gtk_window_set_transient_for(dialog.as(), window.window.as())
        gtk_window_set_default_size(dialog.as(), 520, 360)
        let header = adw_header_bar_new()!
        adw_header_bar_set_show_end_title_buttons(header.as(), 0)
        let cancel = Make.button("Cancel", name: "Cancel") {}
        let save = Make.button("Save", name: "Save memory") {}
        save.css("suggested-action")
        adw_header_bar_pack_start(header.as(), cancel)
        adw_header_bar_pack_end(header.as(), save)
        text = gtk_text_view_new()
        gtk_text_view_set_wrap_mode(text.as(), GTK_WRAP_WORD_CHAR)
        text.named("Memory text")
        type = SearchView.dropDown(["Note", "Idea", "Task", "Quote", "Learning"], name: "Type")
        tags = gtk_entry_new()
        tags.named("Tags")
        engram_set_string(tags, "placeholder-text", "Tags, separated by commas")
        let form = Make.box(true, spacing: 12, [Make.scrolled(text).css("card"), Make.box(false, spacing: 6, [type, tags.expand(h: true)])]).margins(12)
        adw_window_set_content(dialog.as(), Make.box(true, spacing: 0, [header, form.expand(v: true)]))
        Signal.connect(cancel, "clicked") { [unowned self] in gtk_window_destroy(self.dialog.as()) }
        Signal.connect(save, "clicked") { [unowned self] in self.save() }
        let keep = Unmanaged.passRetained(self)
        Signal.connect(dialog, "destroy") { keep.release() }
    }

    func present() {
        gtk_window_present(dialog.as())
        gtk_widget_grab_focus(text)
    }

    func save() {
        let buffer = gtk_text_view_get_buffer(text.as())
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        let raw = gtk_text_buffer_get_text(buffer, &start, &end, 0)
        let content = raw.map { String(cString: $0) } ?? ""
        g_free(raw)
        let kind = [MemoryType.note, .idea, .task, .quote, .learning][Int(gtk_drop_down_get_selected(type.as()))]
        let tagList = GtkKit.text(of: tags).split { $0 == "," || $0 == " " }.map(String.init)
        let data = window.data
        data.async({ try data.capture(content, type: kind, tags: tagList) }) { [weak self] r in
            guard let self else { return }
            switch r {
            case .success(let m):
                gtk_window_destroy(self.dialog.as())
                self.window.toast("Remembered “\(ResultItemText.oneLine(m.title).prefix(60))”.")
                self.window.showMemory(m.id, strengthen: false)
            case .failure(let e):
                self.window.toast("\(e)")
            }
        }
    }
}
