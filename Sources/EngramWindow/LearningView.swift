import CGtk
import EngramCore
import Foundation
import GtkKit

/// Learning: the session now (Pause, Resume, Stop, Next, in step with the live notification through the store),
/// the curricula with their progress, and study time per day and per curriculum drawn as a chart.
final class LearningView {
    unowned let window: MainWindow
    let root: Widget
    let sessionTitle: Widget
    let sessionTime: Widget
    let sessionState: Widget
    let pause: Widget
    let resume: Widget
    let stop: Widget
    let next: Widget
    let sessionCard: Widget
    let curricula: ListSection
    let chart: Widget
    let perCurriculum: Widget
    var learning: WindowData.Learning?
    var ticking = false

    init(window: MainWindow) {
        self.window = window
        sessionTitle = Make.label("No session running", wrap: true).css("title-3")
        sessionTitle.named("Session")
        sessionTime = Make.label("").css("title-1", "numeric")
        sessionTime.named("Session time")
        sessionState = Make.label("").css("dim-label")
        pause = Make.button("Pause", icon: "media-playback-pause-symbolic", name: "Pause") {}
        resume = Make.button("Resume", icon: "media-playback-start-symbolic", name: "Resume") {}
        stop = Make.button("Stop", icon: "media-playback-stop-symbolic", name: "Stop") {}
        next = Make.button("Next topic", icon: "go-next-symbolic", name: "Next topic") {}
        let buttons = Make.box(false, spacing: 6, [pause, resume, stop, next])
        // The card's padding inside it: a margin on the card itself would sit outside its frame.
        sessionCard = Make.box(true, spacing: 0, [Make.box(true, spacing: 6, [sessionTitle, sessionTime, sessionState, buttons]).margins(18)])
        sessionCard.css("card")

        curricula = ListSection("Curricula")
        chart = gtk_drawing_area_new()
        gtk_drawing_area_set_content_height(chart.as(), 160)
        chart.named("Study time per day")
        perCurriculum = gtk_drawing_area_new()
        gtk_drawing_area_set_content_height(perCurriculum.as(), 80)
        perCurriculum.named("Study time per curriculum")
        let chartBox = Make.box(true, spacing: 6, [Make.label("Study time, last 14 days").css("heading"), chart,
                                                   Make.label("Per curriculum, this month").css("heading"), perCurriculum])
        root = Make.scrolled(Make.clamp(Make.box(true, spacing: 18, [sessionCard, curricula.root, chartBox]).margins(18)))

        Signal.connect(pause, "clicked") { [unowned self] in self.session(.pause) }
        Signal.connect(resume, "clicked") { [unowned self] in self.session(.resume) }
        Signal.connect(stop, "clicked") { [unowned self] in self.session(.stop) }
        Signal.connect(next, "clicked") { [unowned self] in
            self.window.data.async({ try self.window.data.nextTopic() }) { [weak self] r in
                if case .failure(let e) = r { self?.window.toast("\(e)") }
                self?.refresh()
            }
        }
        Draw.set(chart) { [unowned self] cr, w, h in self.draw(cr, Double(w), Double(h)) }
        Draw.set(perCurriculum) { [unowned self] cr, w, h in self.drawCurricula(cr, Double(w), Double(h)) }
    }

    func session(_ action: DeepLink.SessionAction) {
        window.data.async({ try self.window.data.follow(.session(action: action, id: nil)) }) { [weak self] r in
            switch r {
            case .success(let out): self?.window.toast(out.sentence)
            case .failure(let e): self?.window.toast("\(e)")
            }
            self?.refresh()
        }
    }

    func start(_ curriculumID: String) {
        window.data.async({ try self.window.data.follow(.sessionStart(curriculumID: curriculumID, topicID: nil)) }) { [weak self] r in
            switch r {
            case .success(let out): self?.window.toast(out.sentence)
            case .failure(let e): self?.window.toast("\(e)")
            }
            self?.refresh()
        }
    }

    func refresh() {
        window.data.async({ try self.window.data.learning() }) { [weak self] r in
            guard let self else { return }
            switch r {
            case .success(let l): self.fill(l)
            case .failure(let e): self.window.toast("\(e)")
            }
        }
    }

    func fill(_ l: WindowData.Learning) {
        learning = l
        curricula.clear()
        for c in l.curricula {
            let row = adw_action_row_new()!
            adw_preferences_row_set_use_markup(row.as(), 0)
            adw_preferences_row_set_title(row.as(), c.title)
            adw_action_row_set_subtitle(row.as(), "\(c.done) of \(c.total) topics done" + (c.nextTopic.map { " · next: \($0)" } ?? ""))
            let bar = gtk_progress_bar_new()!
            gtk_progress_bar_set_fraction(bar.as(), c.total == 0 ? 0 : Double(c.done) / Double(c.total))
            bar.align(v: GTK_ALIGN_CENTER).named("\(c.title) progress: \(c.done) of \(c.total)")
            gtk_widget_set_size_request(bar, 100, -1)
            adw_action_row_add_suffix(row.as(), bar)
            let id = c.id
            let go = Make.button("Start", name: "Start studying \(c.title)") { [unowned self] in self.start(id) }
            go.align(v: GTK_ALIGN_CENTER)
            go.sensitive = l.session == nil
            adw_action_row_add_suffix(row.as(), go)
            curricula.add(row)
        }
        if l.curricula.isEmpty { curricula.empty("No curricula yet: import one with engram import FILE.") }
        updateSession()
        let lines = l.perCurriculum.map { "\($0.title): \($0.minutes) min" }
        engram_accessible_description(perCurriculum, lines.isEmpty ? "No study time this month yet" : lines.joined(separator: ", "))
        gtk_drawing_area_set_content_height(perCurriculum.as(), Int32(max(1, l.perCurriculum.count) * 26 + 6))
        gtk_widget_queue_draw(perCurriculum)
        let days = l.days.map { "\($0.day) \($0.minutes) min" }.joined(separator: ", ")
        engram_accessible_description(chart, days.isEmpty ? "No study time yet" : days)
        gtk_widget_queue_draw(chart)
    }

    func updateSession() {
        guard let s = learning?.session else {
            gtk_label_set_text(sessionTitle.as(), "No session running")
            gtk_label_set_text(sessionTime.as(), "")
            gtk_label_set_text(sessionState.as(), "Start one from a curriculum below.")
            for b in [pause, resume, stop, next] { b.sensitive = false }
            return
        }
        let title = s.title
        gtk_label_set_text(sessionTitle.as(), title)
        sessionTitle.named("Session: \(title)")
        let seconds = Int(s.elapsed(at: window.data.library.store.clock()))
        let time = String(format: "%d:%02d", seconds / 60, seconds % 60)
        gtk_label_set_text(sessionTime.as(), time)
        sessionTime.named("Session time \(time)")
        gtk_label_set_text(sessionState.as(), s.state == .running ? "Studying" : "Paused")
        sessionState.named(s.state == .running ? "Studying" : "Paused")
        pause.sensitive = s.state == .running
        resume.sensitive = s.state == .paused
        stop.sensitive = true
        next.sensitive = s.curriculumID != nil
        // The clock moves while the session runs (one timer, only then).
        if s.state == .running && !ticking {
            ticking = true
            Main.every(ms: 1000) { [weak self] in
                guard let self, self.learning?.session?.state == .running else {
                    self?.ticking = false
                    return false
                }
                self.updateSession()
                return true
            }
        }
    }

    /// One bar per curriculum, its minutes this month, scaled to the most studied; the title and minutes beside it.
    func drawCurricula(_ cr: OpaquePointer, _ w: Double, _ h: Double) {
        let rows = learning?.perCurriculum ?? []
        let dark = adw_style_manager_get_dark(adw_style_manager_get_default()) != 0
        let fg = dark ? 0.9 : 0.2
        cairo_set_font_size(cr, 11)
        guard !rows.isEmpty else {
            cairo_set_source_rgb(cr, fg, fg, fg)
            cairo_move_to(cr, 8, 18)
            cairo_show_text(cr, "No study time this month yet")
            return
        }
        let top = Double(max(rows.map(\.minutes).max() ?? 1, 1))
        let labelWidth = min(220, w * 0.4)
        for (i, r) in rows.enumerated() {
            let y = Double(i) * 26 + 4
            cairo_set_source_rgb(cr, fg, fg, fg)
            cairo_move_to(cr, 4, y + 15)
            cairo_show_text(cr, String(r.title.prefix(30)))
            let bar = max(2, (w - labelWidth - 70) * Double(r.minutes) / top)
            cairo_set_source_rgb(cr, 0.38, 0.65, 0.35)
            cairo_rectangle(cr, labelWidth, y + 4, bar, 14)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, fg, fg, fg)
            cairo_move_to(cr, labelWidth + bar + 6, y + 15)
            cairo_show_text(cr, "\(r.minutes) min")
        }
    }

    /// Bars of minutes per day, scaled to the busiest day, in the theme's accent colour.
    func draw(_ cr: OpaquePointer, _ w: Double, _ h: Double) {
        let days = learning?.days ?? []
        let dark = adw_style_manager_get_dark(adw_style_manager_get_default()) != 0
        let fg = dark ? 0.9 : 0.2
        cairo_set_source_rgb(cr, fg, fg, fg)
        cairo_set_font_size(cr, 10)
        guard !days.isEmpty else {
            cairo_move_to(cr, 8, h / 2)
            cairo_show_text(cr, "No study time yet")
            return
        }
        let top = Double(max(days.map(\.minutes).max() ?? 1, 1))
        let slot = w / Double(days.count)
        for (i, d) in days.enumerated() {
            let bar = (h - 24) * Double(d.minutes) / top
            cairo_set_source_rgb(cr, 0.21, 0.52, 0.89)
            cairo_rectangle(cr, Double(i) * slot + 4, h - 18 - bar, max(slot - 8, 2), bar)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, fg, fg, fg)
            cairo_move_to(cr, Double(i) * slot + 4, h - 4)
            cairo_show_text(cr, String(d.day.suffix(2)))
            if d.minutes > 0 {
                cairo_move_to(cr, Double(i) * slot + 4, h - 22 - bar)
                cairo_show_text(cr, "\(d.minutes)")
            }
        }
    }
}

/// Today's review: the memories the forgetting curve says to go over, each marked reviewed from here.
final class ReviewView {
    unowned let window: MainWindow
    let root: Widget
    let list: ListSection

    init(window: MainWindow) {
        self.window = window
        list = ListSection("Due today", note: "Closest to fading first; reviewing one strengthens it.")
        root = Make.scrolled(Make.clamp(Make.box(true, spacing: 12, [list.root]).margins(18)))
    }

    func refresh() {
        window.data.async({ try self.window.data.review() }) { [weak self] r in
            guard let self else { return }
            self.list.clear()
            switch r {
            case .success(let due):
                for d in due {
                    let row = adw_action_row_new()!
                    adw_preferences_row_set_use_markup(row.as(), 0)
                    adw_preferences_row_set_title(row.as(), ResultItemText.oneLine(d.title))
                    adw_action_row_set_subtitle(row.as(), "strength \(Int(d.strength * 100))%")
                    adw_action_row_set_title_lines(row.as(), 1)
                    let id = d.id
                    let open = Make.button("Open", name: "Open \(ResultItemText.oneLine(d.title).prefix(60))") { [unowned self] in self.window.showMemory(id) }
                    let done = Make.button("Reviewed", name: "Mark reviewed: \(ResultItemText.oneLine(d.title).prefix(60))") { [unowned self] in
                        self.window.data.async({ try self.window.data.reviewed(id) }) { [weak self] r in
                            if case .failure(let e) = r { self?.window.toast("\(e)") }
                            self?.refresh()
                        }
                    }
                    done.css("suggested-action")
                    for b in [open, done] {
                        b.align(v: GTK_ALIGN_CENTER)
                        adw_action_row_add_suffix(row.as(), b)
                    }
                    self.list.add(row)
                }
                if due.isEmpty { self.list.empty("Nothing to review today.") }
            case .failure(let e):
                self.list.empty("\(e)")
            }
        }
    }
}
