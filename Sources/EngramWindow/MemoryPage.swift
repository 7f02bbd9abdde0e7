import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

/// A memory's page: its text rendered, its type, tags, dates, strength and when it fades; pin, copy, edit in place,
/// forget (after asking); its links both ways and memories alike, each one click away; its connections drawn.
final class MemoryPage {
    unowned let window: MainWindow
    let root: Widget
    /// Holds the text's label; each memory is drawn into a new one, with its own link handler, so nothing of the
    /// previous memory's text or links (a selection, a link's hover state) carries over to the next.
    let contentHolder: Widget
    var content: Widget
    let editor: Widget
    let editorBox: Widget
    let details: ListSection
    let tags: Widget
    let tagEntry: Widget
    let links: ListSection
    let related: ListSection
    let pin: Widget
    let edit: Widget
    var shown: WindowData.Page?
    /// Every load and refresh takes a number; only the newest one's answer is shown (a refresh started by a change
    /// elsewhere must not put back the page a click just left).
    var generation = 0
    /// The memory last asked for (shown, or still loading).
    var requested: String?
    /// Set while the page is being filled, so a toggle set by code is not taken as a click.
    var filling = false

    init(window: MainWindow) {
        self.window = window
        contentHolder = Make.box(true, spacing: 0)
        content = Make.label("")
        gtk_box_append(contentHolder.as(), content)

        let view = gtk_text_view_new()!
        gtk_text_view_set_wrap_mode(view.as(), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_monospace(view.as(), 1)
        view.named("Edit memory text")
        gtk_widget_set_size_request(view, -1, 200)
        editor = view
        let save = Make.button("Save", name: "Save edit") {}
        save.css("suggested-action")
        let cancel = Make.button("Cancel", name: "Cancel edit") {}
        editorBox = Make.box(true, spacing: 6, [Make.scrolled(view).css("card"), Make.box(false, spacing: 6, [cancel, save]).align(h: GTK_ALIGN_END)])
        editorBox.visible = false

        pin = gtk_toggle_button_new()
        gtk_button_set_icon_name(pin.as(), "view-pin-symbolic")
        pin.named("Pin").tooltip("Pin: never fades")
        edit = Make.button("", icon: "document-edit-symbolic", name: "Edit") {}
        let copy = Make.button("", icon: "edit-copy-symbolic", name: "Copy") {}
        let graph = Make.button("", icon: "network-workgroup-symbolic", name: "Show connections") {}
        let forget = Make.button("", icon: "user-trash-symbolic", name: "Forget") {}
        forget.css("destructive-action")
        let actions = Make.box(false, spacing: 6, [pin, edit, copy, graph, forget])

        details = ListSection("Details")

        tags = Make.box(false, spacing: 6)
        tags.named("Tags")
        tagEntry = gtk_entry_new()
        tagEntry.named("Add a tag")
        engram_set_string(tagEntry, "placeholder-text", "Add a tag")
        let addTag = Make.button("Add", name: "Add tag") {}
        let tagRow = Make.box(false, spacing: 6, [Make.label("Tags").css("heading"), tags, tagEntry, addTag])
        links = ListSection("Links")
        related = ListSection("Related", note: "Alike in words and in meaning")

        let column = Make.box(true, spacing: 18, [actions, contentHolder, editorBox, tagRow, details.root, links.root, related.root]).margins(18)
        root = Make.scrolled(Make.clamp(column))

        Signal.connect(pin, "toggled") { [unowned self] in if !self.filling { self.togglePin() } }
        Signal.connect(edit, "clicked") { [unowned self] in self.startEditing() }
        Signal.connect(save, "clicked") { [unowned self] in self.saveEdit() }
        Signal.connect(cancel, "clicked") { [unowned self] in self.stopEditing() }
        Signal.connect(copy, "clicked") { [unowned self] in self.copyText() }
        Signal.connect(graph, "clicked") { [unowned self] in if let id = self.shown?.memory.id { self.window.showConnections(id) } }
        Signal.connect(forget, "clicked") { [unowned self] in self.confirmForget() }
        Signal.connect(addTag, "clicked") { [unowned self] in self.addTag() }
        Signal.connect(tagEntry, "activate") { [unowned self] in self.addTag() }
    }

    var data: WindowData { window.data }

    /// Loads and shows memory `id`; `done(false)` when it does not exist (a toast says so).
    func load(_ id: String, strengthen: Bool, done: @escaping (Bool) -> Void = { _ in }) {
        requested = id
        generation += 1
        let mine = generation
        data.async({ try self.data.open(id, strengthen: strengthen) }) { [weak self] r in
            guard let self, mine == self.generation else { return }
            switch r {
            case .success(let p):
                self.fill(p)
                done(true)
            case .failure(let e):
                self.window.toast("\(e)")
                done(false)
            }
        }
    }

    /// Reads the shown memory again (a change elsewhere); a memory forgotten elsewhere closes its page.
    func refresh() {
        guard let id = requested ?? shown?.memory.id, gtk_widget_get_mapped(root) != 0 else { return }
        generation += 1
        let mine = generation
        data.async({ try self.data.open(id, strengthen: false) }) { [weak self] r in
            guard let self, mine == self.generation else { return }
            switch r {
            case .success(let p): if gtk_widget_get_visible(self.editorBox) == 0 { self.fill(p) }
            case .failure:
                self.window.toast("This memory was forgotten elsewhere.")
                self.shown = nil
                self.requested = nil
                self.window.showHome("search")
            }
        }
    }

    func fill(_ p: WindowData.Page) {
        filling = true
        defer { filling = false }
        shown = p
        let m = p.memory
        let label = Make.label("", wrap: true, selectable: true)
        gtk_label_set_markup(label.as(), MarkdownMarkup.render(m.content))
        label.named("Memory text").css("body")
        // Links in the text: engram:// opens here, the web in the browser; nothing else is followed.
        Signal.connectBool1(label, "activate-link") { [unowned self] uri in
            self.follow(string(uri) ?? "")
            return true
        }
        label.visible = content.visible
        gtk_box_remove(contentHolder.as(), content)
        gtk_box_append(contentHolder.as(), label)
        content = label
        gtk_toggle_button_set_active(pin.as(), m.pinned ? 1 : 0)
        pin.named(m.pinned ? "Unpin" : "Pin")

        details.clear()
        let dateFormat = Date.FormatStyle(date: .abbreviated, time: .shortened)
        var facts: [(String, String)] = [
            ("Type", m.type.rawValue.capitalized),
            ("Created", m.created.formatted(dateFormat)),
            ("Last used", m.lastReinforced.formatted(dateFormat) + " (\(m.useCount) use\(m.useCount == 1 ? "" : "s"))"),
            ("Strength", "\(Int((p.strength * 100).rounded()))%"),
            ("Fades", m.pinned ? "Never (pinned)" : p.fades.map { $0.formatted(dateFormat) } ?? "—"),
        ]
        if let c = m.context { facts.append(("Context", c)) }
        facts.append(("Id", m.id))
        for (k, v) in facts {
            let row = adw_action_row_new()!
            adw_preferences_row_set_use_markup(row.as(), 0)
            adw_preferences_row_set_title(row.as(), k)
            adw_action_row_set_subtitle(row.as(), v)
            engram_accessible_label(row, "\(k): \(v)")
            details.add(row)
        }

        removeChildren(tags)
        for tag in m.tags {
            let b = Make.button(tag, icon: "window-close-symbolic", name: "Remove tag \(tag)") { [unowned self] in self.removeTag(tag) }
            b.css("pill", "small")
            gtk_box_append(tags.as(), b)
        }
        if m.tags.isEmpty { gtk_box_append(tags.as(), Make.label("none").css("dim-label")) }

        links.clear()
        let linkRows = p.linksOut.map { ($0.id, $0.title, "links to") } + p.linksIn.map { ($0.id, $0.title, "linked from") }
        for (id, title, how) in linkRows { links.add(link(id, title, how)) }
        if linkRows.isEmpty { links.empty("No links yet.") }
        related.clear()
        for r in p.related { related.add(link(r.id, r.title, "related")) }
        if p.related.isEmpty { related.empty("Nothing alike yet.") }
        gtk_window_set_title(window.window.as(), m.title.prefix(60) + " — Engram")
    }

    /// A row that opens memory `id`.
    func link(_ id: String, _ title: String, _ how: String) -> Widget {
        let row = adw_action_row_new()!
        adw_preferences_row_set_use_markup(row.as(), 0)
        adw_preferences_row_set_title(row.as(), ResultItemText.oneLine(title))
        adw_action_row_set_subtitle(row.as(), how)
        adw_action_row_set_title_lines(row.as(), 1)
        let go = Make.button("", icon: "go-next-symbolic", name: "Open \(ResultItemText.oneLine(title).prefix(60))") { [unowned self] in
            self.window.showMemory(id)
        }
        go.css("flat").align(v: GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(row.as(), go)
        adw_action_row_set_activatable_widget(row.as(), go)
        return row
    }

    // MARK: Actions

    func after(_ r: Result<WindowData.Page, Error>, said: String? = nil) {
        switch r {
        case .success(let p):
            fill(p)
            if let said { window.toast(said) }
        case .failure(let e): window.toast("\(e)")
        }
    }

    func togglePin() {
        guard let id = shown?.memory.id else { return }
        let on = gtk_toggle_button_get_active(pin.as()) != 0
        data.async({ () -> WindowData.Page in
            try self.data.run(.pinMemory, ["memory": id, "pinned": on ? "true" : "false"])
            return try self.data.open(id, strengthen: false)
        }) { [weak self] r in self?.after(r, said: on ? "Pinned: it never fades." : "Unpinned: it fades again if unused.") }
    }

    func addTag() {
        guard let id = shown?.memory.id else { return }
        let tag = text(of: tagEntry).trimmingCharacters(in: .whitespaces)
        guard !tag.isEmpty else { return }
        gtk_editable_set_text(tagEntry.as(), "")
        data.async({ () -> WindowData.Page in
            try self.data.run(.tagMemory, ["memory": id, "add": tag])
            return try self.data.open(id, strengthen: false)
        }) { [weak self] r in self?.after(r) }
    }

    func removeTag(_ tag: String) {
        guard let id = shown?.memory.id else { return }
        data.async({ () -> WindowData.Page in
            try self.data.run(.tagMemory, ["memory": id, "remove": tag])
            return try self.data.open(id, strengthen: false)
        }) { [weak self] r in self?.after(r) }
    }

    func startEditing() {
        guard let m = shown?.memory else { return }
        let buffer = gtk_text_view_get_buffer(editor.as())
        gtk_text_buffer_set_text(buffer, m.content, -1)
        editorBox.visible = true
        content.visible = false
        gtk_widget_grab_focus(editor)
    }

    func stopEditing() {
        editorBox.visible = false
        content.visible = true
    }

    func saveEdit() {
        guard let id = shown?.memory.id else { return }
        let buffer = gtk_text_view_get_buffer(editor.as())
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        let raw = gtk_text_buffer_get_text(buffer, &start, &end, 0)
        let text = raw.map { String(cString: $0) } ?? ""
        g_free(raw)
        data.async({ try self.data.edit(id, content: text) }) { [weak self] r in
            guard let self else { return }
            if case .success = r { self.stopEditing() }
            self.after(r, said: "Saved.")
        }
    }

    func copyText() {
        guard let m = shown?.memory else { return }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(root), m.content)
        window.toast("Copied.")
    }

    func confirmForget() {
        guard let m = shown?.memory else { return }
        let d = engram_message_dialog(window.window.as(), "Forget this memory?",
                                      "“\(ResultItemText.oneLine(m.title).prefix(80))” will be erased everywhere it was copied: the store, the search index, its vectors and the sync logs. This cannot be undone.")!
        adw_message_dialog_add_response(d.as(), "cancel", "Keep")
        adw_message_dialog_add_response(d.as(), "forget", "Forget")
        adw_message_dialog_set_response_appearance(d.as(), "forget", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(d.as(), "cancel")
        adw_message_dialog_set_close_response(d.as(), "cancel")
        Signal.connect1(d.as() as UnsafeMutablePointer<AdwMessageDialog>, "response") { [unowned self] response in
            guard string(response) == "forget" else { return }
            let id = m.id
            self.data.async({ try self.data.forget(id) }) { [weak self] r in
                guard let self else { return }
                switch r {
                case .success:
                    self.shown = nil
                    self.requested = nil
                    self.window.toast("Forgot “\(ResultItemText.oneLine(m.title).prefix(60))”.")
                    self.window.showHome("search")
                    self.window.search.refresh()
                case .failure(let e): self.window.toast("\(e)")
                }
            }
        }
        gtk_window_present(d.as())
    }

    func follow(_ uri: String) {
        if uri.lowercased().hasPrefix("engram://") {
            window.open(link: uri)
        } else if MarkdownMarkup.isSafeLink(uri) {
            gtk_show_uri(window.window.as(), uri, UInt32(GDK_CURRENT_TIME))
        }
    }
}

/// Text helpers shared by the views.
enum ResultItemText {
    /// One line: newlines and runs of space folded.
    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// A titled list of rows (the HIG's boxed list), emptied and filled again as the page changes.
final class ListSection {
    let root: Widget
    let list: Widget

    init(_ title: String, note: String? = nil) {
        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(list.as(), GTK_SELECTION_NONE)
        list.css("boxed-list").named(title)
        var parts = [Make.label(title).css("heading")]
        if let note { parts.append(Make.label(note).css("dim-label", "caption")) }
        root = Make.box(true, spacing: 6, parts + [list])
    }

    func clear() { removeChildren(list) }
    func add(_ row: Widget) { gtk_list_box_append(list.as(), row) }

    func empty(_ text: String) {
        let row = adw_action_row_new()!
        adw_preferences_row_set_use_markup(row.as(), 0)
        adw_preferences_row_set_title(row.as(), text)
        gtk_list_box_row_set_activatable(row.as(), 0)
        add(row)
    }
}
