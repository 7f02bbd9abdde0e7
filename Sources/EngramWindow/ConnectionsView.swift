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
