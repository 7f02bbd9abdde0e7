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
    /// A page "back" returns to.
    enum Page: Equatable {
        case memory(String)
        case connections(String)
        case result
    }

    /// Where "back" goes: the pages opened, newest last.
    var history: [Page] = []

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
            if self.history.last != .memory(id) { self.history.append(.memory(id)) }
            gtk_stack_set_visible_child_name(self.nav.as(), "memory")
            self.back.visible = true
        }
    }

    func showConnections(_ id: String) {
        connections.load(id)
        history.append(.connections(id))
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
        switch previous {
        case .memory(let id): showMemory(id, strengthen: false)
        case .connections(let id): showConnections(id)
        case .result:
            history.append(.result)
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
                self.history.append(.result)
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
