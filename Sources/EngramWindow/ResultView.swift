import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

/// An intent's result (a desktop action, a command): its sentence, its lines, and its items, each one click away.
final class ResultView {
    unowned let window: MainWindow
    let root: Widget
    let sentence: Widget
    let lines: Widget
    let items: ListSection

    init(window: MainWindow) {
        self.window = window
        sentence = Make.label("", wrap: true, selectable: true).css("title-3")
        sentence.named("Result")
        lines = Make.label("", wrap: true, selectable: true)
        items = ListSection("Items")
        root = Make.scrolled(Make.clamp(Make.box(true, spacing: 12, [sentence, lines, items.root]).margins(18)))
    }

    func show(_ r: IntentResult) {
        gtk_label_set_text(sentence.as(), r.sentence)
        gtk_label_set_text(lines.as(), r.lines.joined(separator: "\n"))
        lines.visible = !r.lines.isEmpty
        items.clear()
        for item in r.items {
            let row = adw_action_row_new()!
            adw_preferences_row_set_use_markup(row.as(), 0)
            adw_preferences_row_set_title(row.as(), ResultItemText.oneLine(item.title))
            adw_action_row_set_subtitle(row.as(), item.detail ?? "")
            adw_action_row_set_title_lines(row.as(), 1)
            if let url = item.url {
                let go = Make.button("", icon: "go-next-symbolic", name: "Open \(ResultItemText.oneLine(item.title).prefix(60))") { [unowned self] in
                    self.window.open(link: url)
                }
                go.css("flat").align(v: GTK_ALIGN_CENTER)
                adw_action_row_add_suffix(row.as(), go)
                adw_action_row_set_activatable_widget(row.as(), go)
            }
            items.add(row)
        }
        items.root.visible = !r.items.isEmpty
    }
}
