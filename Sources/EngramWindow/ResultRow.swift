import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

/// One result row, made once and filled again for each answer: type icon, title, one-line description, the "by
/// meaning" badge, a pin, and how strong the memory still is.
final class ResultRow {
    let row: Widget
    let icon: Widget
    let badge: Widget
    let pinned: Widget
    let level: Widget

    init() {
        row = adw_action_row_new()
        adw_preferences_row_set_use_markup(row.as(), 0)
        adw_action_row_set_subtitle_lines(row.as(), 1)
        adw_action_row_set_title_lines(row.as(), 1)
        icon = Make.icon("text-x-generic-symbolic")
        adw_action_row_add_prefix(row.as(), icon)
        gtk_list_box_row_set_activatable(row.as(), 1)
        badge = Make.label("by meaning").css("caption", "accent")
        badge.named("found by meaning")
        adw_action_row_add_suffix(row.as(), badge)
        pinned = Make.icon("view-pin-symbolic").named("pinned")
        adw_action_row_add_suffix(row.as(), pinned)
        level = gtk_level_bar_new_for_interval(0, 1)
        gtk_widget_set_size_request(level, 48, -1)
        level.align(v: GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(row.as(), level)
    }

    func fill(_ r: WindowData.Row) {
        adw_preferences_row_set_title(row.as(), r.title)
        adw_action_row_set_subtitle(row.as(), r.description)
        gtk_image_set_from_icon_name(icon.as(), r.icon)
        badge.visible = r.byMeaning
        pinned.visible = r.pinned
        var said: [String] = []
        if r.byMeaning { said.append("found by meaning") }
        if r.pinned { said.append("pinned") }
        if let s = r.strength, !r.pinned {
            gtk_level_bar_set_value(level.as(), max(0, min(1, s)))
            let words = r.faded ? "faded" : s < 0.5 ? "fading, strength \(Int(s * 100))%" : "strength \(Int(s * 100))%"
            level.named(words)
            level.visible = true
            if r.faded || s < 0.5 { said.append(words) }
        } else {
            level.visible = false
        }
        engram_accessible_description(row, said.joined(separator: ", "))
    }
}
