import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

/// The search view: an entry that searches as you type, filters, and the results.
final class SearchView {
    unowned let window: MainWindow
    let root: Widget
    let entry: Widget
    let list: Widget
    let status: Widget
    let stack: Widget
    let kind: Widget
    let type: Widget
    let faded: Widget
    let notice: Widget
    var rows: [WindowData.Row] = []
    /// The list's rows, filled with `rows` (those past its end hidden).
    var views: [ResultRow] = []
    /// The newest search asked for: an older one's results are dropped when they arrive, and one still queued when a
    /// newer is asked for is not run at all.
    var generation = 0
    /// For `make bench`: when the entry last changed, and whether results have been painted yet.
    var changedAt: Double?
    var paintedOnce = false

    init(window: MainWindow) {
        self.window = window
        entry = gtk_search_entry_new()
        entry.named("Search memories").expand(h: true)
        engram_set_string(entry, "placeholder-text", "Search memories, curricula and topics (tag:x, type:idea, context:work)")
        gtk_search_entry_set_key_capture_widget(entry.as(), window.window)
        // No typing delay: a search runs off the main loop and an outdated one is dropped, so every keystroke can ask.
        gtk_search_entry_set_search_delay(entry.as(), 0)

        kind = Self.dropDown(["Everything", "Memories", "Curricula", "Topics"], name: "Kind")
        type = Self.dropDown(["Any type", "Notes", "Ideas", "Tasks", "Quotes", "Learnings"], name: "Type")
        faded = gtk_check_button_new_with_label("Include faded")
        faded.named("Include faded")
        let filters = Make.box(false, spacing: 6, [kind, type, faded])
        gtk_widget_set_halign(filters, GTK_ALIGN_END)

        notice = Make.label("", wrap: true).css("dim-label", "caption")
        notice.visible = false

        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(list.as(), GTK_SELECTION_BROWSE)
        list.css("boxed-list").named("Results")
        status = adw_status_page_new()
        adw_status_page_set_icon_name(status.as(), "system-search-symbolic")
        stack = gtk_stack_new()
        gtk_stack_add_named(stack.as(), Make.scrolled(Make.clamp(Make.box(true, spacing: 6, [list]).margins(12))), "results")
        gtk_stack_add_named(stack.as(), status, "status")
        stack.expand(v: true)

        // The rows a search fills, made now rather than on the first keystroke.
        for _ in 0..<WindowData.rowsShown {
            let v = ResultRow()
            v.row.visible = false
            views.append(v)
            gtk_list_box_append(list.as(), v.row)
        }
        let top = Make.clamp(Make.box(true, spacing: 6, [entry, filters, notice]).margins(12))
        root = Make.box(true, spacing: 0, [top, stack])

        Signal.connect(entry, "search-changed") { [unowned self] in
            if Timing.enabled { self.changedAt = Timing.now() }
            self.refresh()
        }
        Signal.connect(entry, "activate") { [unowned self] in self.activate(index: self.selectedIndex ?? 0) }
        Signal.connect1(list, "row-activated") { [unowned self] row in
            self.activate(index: Int(gtk_list_box_row_get_index(cast(row))))
        }
        Signal.connect1(kind, "notify::selected") { [unowned self] _ in self.refresh() }
        Signal.connect1(type, "notify::selected") { [unowned self] _ in self.refresh() }
        Signal.connect(faded, "toggled") { [unowned self] in self.refresh() }
        // Arrows from the entry move through the results; Enter opens the one selected.
        Signal.connect(entry, "next-match") { [unowned self] in self.move(1) }
        Signal.connect(entry, "previous-match") { [unowned self] in self.move(-1) }
        let keys = gtk_event_controller_key_new()!
        Signal.connectKey(keys) { [unowned self] key in
            switch key {
            case UInt32(GDK_KEY_Down): self.move(1); return true
            case UInt32(GDK_KEY_Up): self.move(-1); return true
            default: return false
            }
        }
        gtk_widget_add_controller(entry, keys)
    }

    static func dropDown(_ items: [String], name: String) -> Widget {
        var strings = items.map { UnsafePointer(strdup($0)) } + [nil]
        let d = strings.withUnsafeMutableBufferPointer { gtk_drop_down_new_from_strings($0.baseAddress) }!
        strings.forEach { free(UnsafeMutableRawPointer(mutating: $0)) }
        d.named(name)
        return d
    }

    var selectedIndex: Int? {
        gtk_list_box_get_selected_row(list.as()).map { Int(gtk_list_box_row_get_index($0)) }
    }

    func move(_ by: Int) {
        guard !rows.isEmpty else { return }
        let next = max(0, min(rows.count - 1, (selectedIndex ?? -1) + by))
        if let row = gtk_list_box_get_row_at_index(list.as(), Int32(next)) {
            gtk_list_box_select_row(list.as(), row)
            gtk_widget_grab_focus(cast(raw(row)))
            gtk_widget_grab_focus(entry)
        }
    }

    func focus() {
        gtk_widget_grab_focus(entry)
    }

    func set(query: String) {
        gtk_editable_set_text(entry.as(), query)
        refresh()
    }

    var filters: WindowData.SearchFilters {
        var f = WindowData.SearchFilters()
        f.kind = [nil, .memory, .curriculum, .topic][Int(gtk_drop_down_get_selected(kind.as()))]
        f.type = [nil, .note, .idea, .task, .quote, .learning][Int(gtk_drop_down_get_selected(type.as()))]
        f.includeFaded = gtk_check_button_get_active(faded.as()) != 0
        return f
    }

    /// Searches for what the entry says (off the main loop) and shows the newest answer.
    func refresh() {
        let query = text(of: entry)
        generation += 1
        let mine = generation
        let filters = self.filters
        if query.allSatisfy(\.isWhitespace) {
            show([], notice: nil, empty: ("Search your memories", "Type to search by words and by meaning. Ctrl+N captures a new memory."))
            return
        }
        let started = Timing.enabled ? Timing.now() : 0
        var searchMs = 0.0
        window.data.async({ () -> WindowData.SearchOutcome? in
            guard mine == self.generation else { return nil }  // a newer keystroke is already queued
            let t = Timing.enabled ? Timing.now() : 0
            defer { if Timing.enabled { searchMs = Timing.now() - t } }
            return try self.window.data.search(query, filters: filters)
        }) { [weak self] result in
            guard let self, mine == self.generation else { return }
            if Timing.enabled { self.report(searchMs: searchMs, started: started) }
            switch result {
            case .success(nil): return
            case .success(let out?):
                let hint = out.suggestion.map { "Nothing found. Did you mean “\($0)”?" } ?? "Nothing found for what you typed, by words or by meaning."
                self.show(out.rows, notice: out.notice, empty: ("No results", hint))
            case .failure(let error):
                self.show([], notice: nil, empty: ("Search failed", "\(error)"))
            }
        }
    }

    /// For `make bench`: once the list this answer made is painted, how long it took.
    func report(searchMs: Double, started: Double) {
        let changed = changedAt
        Timing.afterPaint(list) { [weak self] in
            guard let self else { return }
            let t = Timing.now()
            let first = self.rows.first?.id ?? ""
            if !self.paintedOnce {
                self.paintedOnce = true
                Timing.write("painted rows=\(self.rows.count) first=\(first) t=\(t)")
            } else if let changed {
                Timing.write(String(format: "keystroke ms=%.2f search=%.2f rows=%d first=%@", t - changed, searchMs, self.rows.count, first))
            }
        }
    }

    func show(_ rows: [WindowData.Row], notice: String?, empty: (String, String)) {
        self.rows = rows
        // Rows are kept and refilled, never rebuilt: making thirty rows' widgets took most of a keystroke's time.
        while views.count < rows.count {
            let v = ResultRow()
            views.append(v)
            gtk_list_box_append(list.as(), v.row)
        }
        for (i, v) in views.enumerated() {
            if i < rows.count { v.fill(rows[i]) }
            v.row.visible = i < rows.count
        }
        if let first = gtk_list_box_get_row_at_index(list.as(), 0) { gtk_list_box_select_row(list.as(), first) }
        gtk_label_set_text(self.notice.as(), notice ?? "")
        self.notice.visible = notice != nil
        if rows.isEmpty {
            adw_status_page_set_title(status.as(), empty.0)
            adw_status_page_set_description(status.as(), MarkdownMarkup.escape(empty.1))
            gtk_stack_set_visible_child_name(stack.as(), "status")
        } else {
            gtk_stack_set_visible_child_name(stack.as(), "results")
        }
        gtk_widget_set_name(list, "results-\(generation)")
    }

    func activate(index: Int) {
        guard rows.indices.contains(index) else { return }
        let r = rows[index]
        switch r.kind {
        case .memory: window.showMemory(r.id)
        default: window.open(link: r.url)
        }
    }
}
