import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

/// The window: a header bar with the view switcher (Search, Learning, Review), a back button for a memory's page
/// and its connections, a handoff banner, toasts for what a click did; a view switcher bar at the bottom when the
/// window is too narrow for the one in the header (the HIG's adaptive pattern).
final class MainWindow {
    let application: EngramApplication
    var data: WindowData { application.data }
    let window: Widget
    let toasts: Widget
    let nav: Widget
    let views: Widget
    let back: Widget
    let switcherTitle: Widget
    let switcherBar: Widget
    let banner: Widget
    let bannerLabel: Widget
    var bannerItem: String?

    var search: SearchView!
    var page: MemoryPage!
    var learning: LearningView!
    var review: ReviewView!
    var connections: ConnectionsView!
    var result: ResultView!
    var watch: DaemonWatch?
    /// Push-to-talk: starts `engram listen`, or stops the one listening; lit while it records.
    var listenButton: Widget!
    /// Where "back" goes: the pages opened, newest last.
    var history: [String] = []

    init(application: EngramApplication) {
        self.application = application
        window = adw_application_window_new(cast(raw(application.app)))
        gtk_window_set_title(window.as(), "Engram")
        gtk_window_set_default_size(window.as(), 900, 700)
        gtk_window_set_icon_name(window.as(), EngramBus.desktopEntry)

        let header = adw_header_bar_new()!
        switcherTitle = adw_view_switcher_title_new()
        adw_view_switcher_title_set_title(switcherTitle.as(), "Engram")
        adw_header_bar_set_title_widget(header.as(), switcherTitle)
        back = gtk_button_new_from_icon_name("go-previous-symbolic")
        back.named("Back").tooltip("Back (Alt+Left)")
        back.visible = false
        adw_header_bar_pack_start(header.as(), back)
        let captureButton = gtk_button_new_from_icon_name("list-add-symbolic")!
        captureButton.named("New memory").tooltip("New memory (Ctrl+N)")
        adw_header_bar_pack_start(header.as(), captureButton)
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(menuButton.as(), "open-menu-symbolic")
        menuButton.named("Main menu")
        let menu = g_menu_new()!
        g_menu_append(menu, "Keyboard Shortcuts", "win.show-help-overlay")
        g_menu_append(menu, "Quit", "app.quit")
        gtk_menu_button_set_menu_model(menuButton.as(), cast(raw(menu)))
        adw_header_bar_pack_end(header.as(), menuButton)
        listenButton = gtk_button_new_from_icon_name("audio-input-microphone-symbolic")
        listenButton.named("Listen").tooltip("Push to talk: say what you want (Ctrl+Shift+L)")
        adw_header_bar_pack_end(header.as(), listenButton)

        views = adw_view_stack_new()
        adw_view_switcher_title_set_stack(switcherTitle.as(), views.as())
        switcherBar = adw_view_switcher_bar_new()
        adw_view_switcher_bar_set_stack(switcherBar.as(), views.as())

        nav = gtk_stack_new()
        gtk_stack_set_transition_type(nav.as(), GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT)
        gtk_stack_add_named(nav.as(), views, "home")

        banner = gtk_revealer_new()
        let bannerBox = Make.box(false, spacing: 12).margins(12)
        bannerBox.css("card")
        gtk_widget_set_margin_top(bannerBox, 6)
        bannerLabel = Make.label("", wrap: true).expand(h: true)
        gtk_box_append(bannerBox.as(), bannerLabel)
        gtk_revealer_set_child(banner.as(), bannerBox)

        toasts = adw_toast_overlay_new()
        let body = Make.box(true, spacing: 0, [banner, nav])
        adw_toast_overlay_set_child(toasts.as(), body)
        let outer = Make.box(true, spacing: 0, [header, toasts, switcherBar])
        adw_application_window_set_content(window.as(), outer)

        search = SearchView(window: self)
        page = MemoryPage(window: self)
        learning = LearningView(window: self)
        review = ReviewView(window: self)
        connections = ConnectionsView(window: self)
        result = ResultView(window: self)
        add(view: search.root, name: "search", title: "Search", icon: "system-search-symbolic")
        add(view: learning.root, name: "learning", title: "Learning", icon: "accessories-dictionary-symbolic")
        add(view: review.root, name: "review", title: "Review", icon: "view-refresh-symbolic")
        gtk_stack_add_named(nav.as(), page.root, "memory")
        gtk_stack_add_named(nav.as(), connections.root, "connections")
        gtk_stack_add_named(nav.as(), result.root, "result")

        let bannerButton = Make.button("Continue here", name: "Continue here") { [unowned self] in self.continueHandoff() }
        gtk_box_append(bannerBox.as(), bannerButton)
        let dismiss = Make.button("", icon: "window-close-symbolic", name: "Dismiss") { [unowned self] in
            gtk_revealer_set_reveal_child(self.banner.as(), 0)
        }
        gtk_box_append(bannerBox.as(), dismiss)

        Signal.connect(back, "clicked") { [unowned self] in self.goBack() }
        Signal.connect(captureButton, "clicked") { [unowned self] in CaptureDialog(window: self).present() }
        Signal.connect(listenButton, "clicked") { [unowned self] in self.toggleListening() }
        // The switcher moves to the bottom bar when the header has no room for it.
        Signal.connect1(switcherTitle, "notify::title-visible") { [unowned self] _ in self.adapt() }
        Signal.connect1(views, "notify::visible-child") { [unowned self] _ in self.viewChanged() }
        addActions()
        gtk_application_window_set_help_overlay(window.as(), ShortcutsWindow.make())
        watch = DaemonWatch(connection: g_application_get_dbus_connection(cast(raw(application.app)))) { [weak self] what in
            self?.daemonChanged(what)
        }
        search.refresh()
        refreshBanner()
    }

    func add(view: Widget, name: String, title: String, icon: String) {
        let p = adw_view_stack_add_titled(views.as(), view, name, title)
        adw_view_stack_page_set_icon_name(p, icon)
    }

    func addActions() {
        func action(_ name: String, _ fn: @escaping () -> Void) {
            let a = g_simple_action_new(name, nil)!
            Signal.connect1(a, "activate") { _ in fn() }
            g_action_map_add_action(cast(raw(window)), cast(raw(a)))
        }
        action("search") { [unowned self] in self.showHome("search"); self.search.focus() }
        action("capture") { [unowned self] in CaptureDialog(window: self).present() }
        action("listen") { [unowned self] in self.toggleListening() }
        action("back") { [unowned self] in self.goBack() }
        action("learning") { [unowned self] in self.showHome("learning") }
        action("review") { [unowned self] in self.showHome("review") }
    }

    func adapt() {
        let visible = adw_view_switcher_title_get_title_visible(switcherTitle.as()) != 0
        adw_view_switcher_bar_set_reveal(switcherBar.as(), visible ? 1 : 0)
    }

    func viewChanged() {
        guard let name = string(adw_view_stack_get_visible_child_name(views.as())) else { return }
        // A tab of the switcher chosen on a memory's page goes to that view.
        if string(gtk_stack_get_visible_child_name(nav.as())) != "home" {
            gtk_window_set_title(window.as(), "Engram")
            gtk_stack_set_visible_child_name(nav.as(), "home")
            history.removeAll()
            back.visible = false
        }
        if name == "learning" { learning.refresh() }
        if name == "review" { review.refresh() }
    }

    func present() {
        gtk_window_present(window.as())
    }

    // MARK: Navigation

    func showHome(_ view: String) {
        gtk_window_set_title(window.as(), "Engram")
        gtk_stack_set_visible_child_name(nav.as(), "home")
        adw_view_stack_set_visible_child_name(views.as(), view)
        history.removeAll()
        back.visible = false
    }

    func showMemory(_ id: String, strengthen: Bool = true) {
        page.load(id, strengthen: strengthen) { [weak self] ok in
            guard let self, ok else { return }
            if self.history.last != "memory:" + id { self.history.append("memory:" + id) }
            gtk_stack_set_visible_child_name(self.nav.as(), "memory")
            self.back.visible = true
        }
    }

    func showConnections(_ id: String) {
        connections.load(id)
        history.append("connections:" + id)
        gtk_stack_set_visible_child_name(nav.as(), "connections")
        back.visible = true
    }

    func goBack() {
        _ = history.popLast()
        guard let previous = history.last else {
            gtk_window_set_title(window.as(), "Engram")
            gtk_stack_set_visible_child_name(nav.as(), "home")
            back.visible = false
            search.refresh()
            return
        }
        history.removeLast()
        if previous.hasPrefix("memory:") { showMemory(String(previous.dropFirst(7)), strengthen: false) }
        if previous.hasPrefix("connections:") { showConnections(String(previous.dropFirst(12))) }
        if previous == "result" {
            history.append("result")
            gtk_stack_set_visible_child_name(nav.as(), "result")
            back.visible = true
        }
    }

    /// Opens an `engram://` link in the window: a memory's page, a search, a curriculum, a session action, the review.
    func open(link: String) {
        // An intent of the catalog (the desktop entry's actions: "intent:DailyReview"): run it, show its result.
        if link.hasPrefix(IntentInvocation.commandScheme + ":") {
            runIntent(link)
            return
        }
        let parsed: DeepLink
        do { parsed = try DeepLink.parse(link) } catch {
            toast("\(error)")
            return
        }
        switch parsed {
        case .memory(let id): showMemory(id)
        case .search(let q):
            showHome("search")
            search.set(query: q)
        case .curriculum, .topic, .sessionStart, .session:
            if case .curriculum = parsed {} else if case .topic = parsed {} else {
                data.async({ try self.data.follow(parsed) }) { [weak self] r in
                    if case .success(let out) = r { self?.toast(out.sentence) }
                    if case .failure(let e) = r { self?.toast("\(e)") }
                    self?.learning.refresh()
                }
            }
            showHome("learning")
        case .review: showHome("review")
        case .stats, .context, .remember, .handoff:
            data.async({ try self.data.follow(parsed) }) { [weak self] r in
                switch r {
                case .success(let out):
                    self?.toast(out.sentence)
                    if let m = out.memory { self?.showMemory(m.id, strengthen: false) }
                case .failure(let e): self?.toast("\(e)")
                }
            }
        }
    }

    func runIntent(_ commandID: String) {
        let invocation: IntentInvocation
        do { invocation = try WindowData.desktopAction(commandID) } catch {
            toast("\(error)")
            return
        }
        data.async({ try self.data.run(invocation.name, invocation.arguments) }) { [weak self] r in
            guard let self else { return }
            switch r {
            case .success(let out):
                self.result.show(out)
                self.history.append("result")
                gtk_stack_set_visible_child_name(self.nav.as(), "result")
                self.back.visible = true
                self.learning.refresh()
            case .failure(let e): self.toast("\(e)")
            }
        }
    }

    /// A short message at the bottom of the window (plain text, never markup).
    func toast(_ text: String) {
        if ProcessInfo.processInfo.environment["ENGRAM_APP_DEBUG"] == "1" { FileHandle.standardError.write(Data("toast: \(text)\n".utf8)) }
        let t = adw_toast_new(MarkdownMarkup.escape(String(text.prefix(300))))!
        // The newest says what the last click did: it replaces the one showing rather than waiting in a queue.
        adw_toast_set_priority(t, ADW_TOAST_PRIORITY_HIGH)
        adw_toast_set_timeout(t, 3)
        adw_toast_overlay_add_toast(toasts.as(), t)
    }

    // MARK: Push-to-talk

    /// The first click listens (`engram listen`, beside this program or on PATH), the next stops it; it then acts on
    /// what it heard, says the answer and shows it in a notification. The button is lit while it records.
    func toggleListening() {
        let paths = data.library.paths
        if Listening.stop(paths) {
            showListening(false)
            return
        }
        let beside = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
            .deletingLastPathComponent().appendingPathComponent("engram").path
        let engram = FileManager.default.isExecutableFile(atPath: beside) ? beside : "engram"
        do {
            let child = try Spawner.spawn(engram, ["listen", "--data-dir", paths.dataDirectory])
            showListening(true)
            Spawner.reap(child.pid) { [weak self] _ in Main.async { self?.showListening(false) } }
        } catch {
            toast("Cannot listen: \(error)")
        }
    }

    func showListening(_ on: Bool) {
        if on { gtk_widget_add_css_class(listenButton, "destructive-action") } else { gtk_widget_remove_css_class(listenButton, "destructive-action") }
        listenButton.named(on ? "Stop listening" : "Listen").tooltip(on ? "Listening… click to stop" : "Push to talk: say what you want (Ctrl+Shift+L)")
    }

    // MARK: Live

    /// The daemon changed something (a capture from the CLI, a forget elsewhere, a session paused from the
    /// notification or another machine): what is shown is read again.
    func daemonChanged(_ what: DaemonWatch.Change) {
        switch what {
        case .index:
            search.refresh()
            page.refresh()
            if gtk_widget_get_mapped(review.root) != 0 { review.refresh() }
        case .session:
            learning.refresh()
        case .daemon:
            search.refresh()
            learning.refresh()
        }
        refreshBanner()
    }

    func refreshBanner() {
        data.async({ self.data.handoffOffer() }) { [weak self] r in
            guard let self else { return }
            guard case .success(let offer?) = r else {
                gtk_revealer_set_reveal_child(self.banner.as(), 0)
                return
            }
            self.bannerItem = offer.itemID
            gtk_label_set_text(self.bannerLabel.as(), "Continue from \(offer.device): \(offer.text)")
            gtk_revealer_set_reveal_child(self.banner.as(), 1)
        }
    }

    func continueHandoff() {
        guard let item = bannerItem else { return }
        gtk_revealer_set_reveal_child(banner.as(), 0)
        data.async({ try self.data.follow(.handoff(device: item)) }) { [weak self] r in
            switch r {
            case .success(let out):
                self?.toast(out.sentence)
                if let m = out.memory { self?.showMemory(m.id, strengthen: false) } else { self?.showHome("learning") }
            case .failure(let e): self?.toast("\(e)")
            }
        }
    }
}

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
