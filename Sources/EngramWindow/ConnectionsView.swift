import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

/// The link graph around a memory, depth 1–3, drawn in the window: the memory in the middle, each ring one link
/// further out; a click on a node opens it. The same nodes are listed below for the keyboard and screen readers.
final class ConnectionsView {
    unowned let window: MainWindow
    let root: Widget
    let heading: Widget
    let depth: Widget
    let area: Widget
    let nodes: ListSection
    var graph: ConnectionGraph?
    var centre = ""
    /// Where each node was drawn, for clicks.
    var placed: [(id: String, x: Double, y: Double)] = []

    init(window: MainWindow) {
        self.window = window
        heading = Make.label("", wrap: true).css("title-3")
        depth = SearchView.dropDown(["1 link", "2 links", "3 links"], name: "Depth")
        gtk_drop_down_set_selected(depth.as(), 1)
        area = gtk_drawing_area_new()
        gtk_drawing_area_set_content_height(area.as(), 420)
        area.named("Connection graph").expand(h: true)
        nodes = ListSection("Connected memories")
        root = Make.scrolled(Make.clamp(Make.box(true, spacing: 12, [Make.box(false, spacing: 12, [heading.expand(h: true), depth]), area, nodes.root]).margins(18), width: 960))
        Draw.set(area) { [unowned self] cr, w, h in self.draw(cr, Double(w), Double(h)) }
        let click = gtk_gesture_click_new()!
        Signal.connectPressed(click) { [unowned self] x, y in self.clicked(x, y) }
        gtk_widget_add_controller(area, click)
        Signal.connect1(depth, "notify::selected") { [unowned self] _ in if !self.centre.isEmpty { self.load(self.centre) } }
    }

    func load(_ id: String) {
        centre = id
        let d = Int(gtk_drop_down_get_selected(depth.as())) + 1
        window.data.async({ try self.window.data.graph(id, depth: d) }) { [weak self] r in
            guard let self else { return }
            switch r {
            case .success(let g): self.fill(g)
            case .failure(let e): self.window.toast("\(e)")
            }
        }
    }

    func fill(_ g: ConnectionGraph) {
        graph = g
        let n = g.nodes.count - 1
        gtk_label_set_text(heading.as(), "“\(ResultItemText.oneLine(g.nodes.first?.title ?? "").prefix(80))”: \(n) connection\(n == 1 ? "" : "s") within \(g.depth) link\(g.depth == 1 ? "" : "s")")
        nodes.clear()
        for node in g.nodes.dropFirst() {
            let row = adw_action_row_new()!
            adw_preferences_row_set_use_markup(row.as(), 0)
            adw_preferences_row_set_title(row.as(), ResultItemText.oneLine(node.title))
            adw_action_row_set_subtitle(row.as(), "\(node.depth) link\(node.depth == 1 ? "" : "s") away · \(node.type)")
            adw_action_row_set_title_lines(row.as(), 1)
            let id = node.id
            let go = Make.button("", icon: "go-next-symbolic", name: "Open \(ResultItemText.oneLine(node.title).prefix(60))") { [unowned self] in
                self.window.showMemory(id)
            }
            go.css("flat").align(v: GTK_ALIGN_CENTER)
            adw_action_row_add_suffix(row.as(), go)
            adw_action_row_set_activatable_widget(row.as(), go)
            nodes.add(row)
        }
        if n == 0 { nodes.empty("No links yet.") }
        engram_accessible_description(area, "\(n) connected memories; they are listed below")
        gtk_widget_queue_draw(area)
    }

    /// Rings by distance; nodes spread evenly on their ring; edges first, then nodes with short labels.
    func draw(_ cr: OpaquePointer, _ w: Double, _ h: Double) {
        placed.removeAll()
        guard let g = graph, let first = g.nodes.first else { return }
        let cx = w / 2, cy = h / 2
        // The outer ring near the edge (room left for labels on the right).
        let ring = (min(w, h) / 2 - 24) / Double(max(g.depth, 1))
        var position: [String: (Double, Double)] = [first.id: (cx, cy)]
        for d in 1...max(g.depth, 1) {
            let onRing = g.nodes.filter { $0.depth == d }
            for (i, node) in onRing.enumerated() {
                let angle = 2 * Double.pi * Double(i) / Double(max(onRing.count, 1)) + Double(d) * 0.4
                position[node.id] = (cx + cos(angle) * ring * Double(d), cy + sin(angle) * ring * Double(d))
            }
        }
        let dark = adw_style_manager_get_dark(adw_style_manager_get_default()) != 0
        let fg = dark ? 0.88 : 0.18
        cairo_set_line_width(cr, 1.2)
        cairo_set_source_rgba(cr, fg, fg, fg, 0.35)
        for e in g.edges {
            guard let a = position[e.from], let b = position[e.to] else { continue }
            cairo_move_to(cr, a.0, a.1)
            cairo_line_to(cr, b.0, b.1)
            cairo_stroke(cr)
        }
        cairo_set_font_size(cr, 11)
        for node in g.nodes {
            guard let p = position[node.id] else { continue }
            placed.append((node.id, p.0, p.1))
            let r = node.id == first.id ? 12.0 : 8.0
            if node.id == first.id { cairo_set_source_rgb(cr, 0.21, 0.52, 0.89) } else { cairo_set_source_rgb(cr, 0.38, 0.65, 0.35) }
            cairo_arc(cr, p.0, p.1, r, 0, 2 * Double.pi)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, fg, fg, fg)
            cairo_move_to(cr, p.0 + r + 3, p.1 + 4)
            // The toy text API draws bytes as given: a title is shown as text, never interpreted.
            cairo_show_text(cr, String(ResultItemText.oneLine(node.title).prefix(28)))
        }
    }

    func clicked(_ x: Double, _ y: Double) {
        guard let hit = placed.min(by: { hypot($0.x - x, $0.y - y) < hypot($1.x - x, $1.y - y) }),
              hypot(hit.x - x, hit.y - y) <= 16 else { return }
        window.showMemory(hit.id)
    }
}

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

/// The keyboard shortcuts window (Ctrl+?), built the only way GTK builds one: from a GtkBuilder description.
enum ShortcutsWindow {
    static let xml = """
    <interface>
      <object class="GtkShortcutsWindow" id="shortcuts">
        <property name="modal">1</property>
        <child>
          <object class="GtkShortcutsSection">
            <property name="section-name">main</property>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="title">General</property>
                <child><object class="GtkShortcutsShortcut"><property name="title">Search</property><property name="accelerator">&lt;Control&gt;f</property></object></child>
                <child><object class="GtkShortcutsShortcut"><property name="title">New memory</property><property name="accelerator">&lt;Control&gt;n</property></object></child>
                <child><object class="GtkShortcutsShortcut"><property name="title">Push to talk</property><property name="accelerator">&lt;Control&gt;&lt;Shift&gt;l</property></object></child>
                <child><object class="GtkShortcutsShortcut"><property name="title">Learning</property><property name="accelerator">&lt;Control&gt;l</property></object></child>
                <child><object class="GtkShortcutsShortcut"><property name="title">Today's review</property><property name="accelerator">&lt;Control&gt;r</property></object></child>
                <child><object class="GtkShortcutsShortcut"><property name="title">Back</property><property name="accelerator">&lt;Alt&gt;Left</property></object></child>
                <child><object class="GtkShortcutsShortcut"><property name="title">Keyboard shortcuts</property><property name="accelerator">&lt;Control&gt;question</property></object></child>
                <child><object class="GtkShortcutsShortcut"><property name="title">Quit</property><property name="accelerator">&lt;Control&gt;q</property></object></child>
              </object>
            </child>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="title">Results</property>
                <child><object class="GtkShortcutsShortcut"><property name="title">Next and previous result</property><property name="accelerator">Down Up</property></object></child>
                <child><object class="GtkShortcutsShortcut"><property name="title">Open the selected result</property><property name="accelerator">Return</property></object></child>
              </object>
            </child>
          </object>
        </child>
      </object>
    </interface>
    """

    static func make() -> OpaquePointer {
        let builder = gtk_builder_new_from_string(xml, -1)!
        let window = gtk_builder_get_object(builder, "shortcuts")!
        g_object_ref(window)
        g_object_unref(UnsafeMutableRawPointer(builder))
        return OpaquePointer(window)
    }
}

/// Follows the daemon: `PropertiesChanged` on org.engram.Engram1 (a capture, a forget, a session change anywhere
/// reaches the index and the session property) and the daemon coming and going. No polling.
final class DaemonWatch {
    enum Change { case index, session, daemon }

    init?(connection: OpaquePointer?, _ changed: @escaping (Change) -> Void) {
        guard let connection else { return nil }
        BusSignal.subscribe(connection, sender: EngramBus.name, interface: "org.freedesktop.DBus.Properties",
                            member: "PropertiesChanged", path: "/org/engram/Engram") { _, params in
            guard let params else { return }
            let dict = g_variant_get_child_value(params, 1)!
            defer { g_variant_unref(dict) }
            var keys: Set<String> = []
            for i in 0..<g_variant_n_children(dict) {
                let entry = g_variant_get_child_value(dict, i)!
                let key = g_variant_get_child_value(entry, 0)!
                keys.insert(String(cString: g_variant_get_string(key, nil)))
                g_variant_unref(key)
                g_variant_unref(entry)
            }
            if keys.contains("ActiveSession") { changed(.session) }
            if !keys.isDisjoint(with: ["IndexedChange", "MemoryCount", "ActiveContext"]) { changed(.index) }
        }
        BusSignal.subscribe(connection, sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                            member: "NameOwnerChanged", path: "/org/freedesktop/DBus") { _, params in
            guard let params else { return }
            let name = g_variant_get_child_value(params, 0)!
            defer { g_variant_unref(name) }
            if String(cString: g_variant_get_string(name, nil)) == EngramBus.name { changed(.daemon) }
        }
    }
}

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
