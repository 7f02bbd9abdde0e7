import CGtk

// The one place where GObject's C world meets Swift: pointer casts between GObject types, signal handlers that are
// Swift closures, and hops onto the GLib main loop.
//
// Threading rule: every GTK call happens on the thread running the GLib main loop (the process's main thread).
// Work elsewhere (a search, a store write) comes back with `Main.async`. Swift's `MainActor` and
// `DispatchQueue.main` are not used: GLib's loop does not drain the dispatch main queue, so a job sent there would
// never run.

/// A GObject instance of any type, as Swift sees GTK's typed pointers (`UnsafeMutablePointer<_GtkWidget>` …).
public typealias Object = UnsafeMutableRawPointer

/// `p` as a pointer to the GObject type `T` (GTK's up- and down-casts are pointer conversions).
@inline(__always) public func cast<T>(_ p: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<T>! {
    p?.assumingMemoryBound(to: T.self)
}

/// `p` as an opaque GObject pointer: most GTK types (`GtkBox`, `GtkLabel`…) hide their struct, and Swift imports
/// pointers to them as `OpaquePointer`.
@inline(__always) public func cast(_ p: UnsafeMutableRawPointer?) -> OpaquePointer! {
    p.map { OpaquePointer($0) }
}

/// An opaque GObject pointer as an untyped one.
@inline(__always) public func raw(_ p: OpaquePointer?) -> UnsafeMutableRawPointer! {
    p.map { UnsafeMutableRawPointer($0) }
}

/// `p` as an untyped GObject pointer.
@inline(__always) public func raw<T>(_ p: UnsafeMutablePointer<T>?) -> UnsafeMutableRawPointer! {
    p.map { UnsafeMutableRawPointer($0) }
}

/// A GTK widget.
public typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Widget conveniences used everywhere.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// This widget as a pointer to another GTK type (`w.as()` where a `GtkBox*` is expected).
    @inline(__always) public func `as`<T>() -> UnsafeMutablePointer<T> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self) }

    /// This widget as a pointer to a GTK type whose struct is hidden (imported as `OpaquePointer`).
    @inline(__always) public func `as`() -> OpaquePointer { OpaquePointer(self) }

    /// Names the widget for screen readers and accessibility tests.
    @discardableResult public func named(_ label: String) -> Widget {
        engram_accessible_label(self, label)
        return self
    }

    @discardableResult public func tooltip(_ text: String) -> Widget {
        gtk_widget_set_tooltip_text(self, text)
        return self
    }

    @discardableResult public func css(_ classes: String...) -> Widget {
        for c in classes { gtk_widget_add_css_class(self, c) }
        return self
    }

    @discardableResult public func margins(_ all: Int32) -> Widget {
        gtk_widget_set_margin_top(self, all)
        gtk_widget_set_margin_bottom(self, all)
        gtk_widget_set_margin_start(self, all)
        gtk_widget_set_margin_end(self, all)
        return self
    }

    @discardableResult public func expand(h: Bool = false, v: Bool = false) -> Widget {
        gtk_widget_set_hexpand(self, h ? 1 : 0)
        gtk_widget_set_vexpand(self, v ? 1 : 0)
        return self
    }

    @discardableResult public func align(h: GtkAlign? = nil, v: GtkAlign? = nil) -> Widget {
        if let h { gtk_widget_set_halign(self, h) }
        if let v { gtk_widget_set_valign(self, v) }
        return self
    }

    public var visible: Bool {
        get { gtk_widget_get_visible(self) != 0 }
        nonmutating set { gtk_widget_set_visible(self, newValue ? 1 : 0) }
    }

    public var sensitive: Bool {
        get { gtk_widget_get_sensitive(self) != 0 }
        nonmutating set { gtk_widget_set_sensitive(self, newValue ? 1 : 0) }
    }
}

/// Builders for the widgets the window uses, each returning a `Widget`.
public enum Make {
    public static func box(_ vertical: Bool, spacing: Int32 = 6, _ children: [Widget] = []) -> Widget {
        let b = gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing)!
        for c in children { gtk_box_append(b.as(), c) }
        return b
    }

    /// A label showing `text` literally (never markup), wrapped, selectable when asked.
    public static func label(_ text: String, wrap: Bool = false, selectable: Bool = false, xalign: Float = 0) -> Widget {
        let l = gtk_label_new(nil)!
        gtk_label_set_text(l.as(), text)
        gtk_label_set_use_markup(l.as(), 0)
        gtk_label_set_xalign(l.as(), xalign)
        if wrap {
            gtk_label_set_wrap(l.as(), 1)
            gtk_label_set_wrap_mode(l.as(), PANGO_WRAP_WORD_CHAR)
        }
        if selectable { gtk_label_set_selectable(l.as(), 1) }
        return l
    }

    public static func button(_ label: String, icon: String? = nil, name: String? = nil, _ action: @escaping () -> Void) -> Widget {
        let b: Widget
        if let icon, label.isEmpty {
            b = gtk_button_new_from_icon_name(icon)
        } else if let icon {
            b = gtk_button_new()
            let content = adw_button_content_new()!
            adw_button_content_set_icon_name(content.as(), icon)
            adw_button_content_set_label(content.as(), label)
            gtk_button_set_child(b.as(), content)
        } else {
            b = gtk_button_new_with_label(label)
        }
        // A button with words is named by them; the accessible label is set only for an icon alone or a longer name
        // ("Start" that says "Start studying Swift Concurrency").
        if let name, name != label { b.named(name) }
        if let name, label.isEmpty { b.tooltip(name) }
        Signal.connect(b, "clicked", action)
        return b
    }

    public static func scrolled(_ child: Widget) -> Widget {
        let s = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(s.as(), child)
        gtk_scrolled_window_set_policy(s.as(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        s.expand(h: true, v: true)
        return s
    }

    /// A libadwaita clamp: content no wider than `width`, centred (the HIG's readable column).
    public static func clamp(_ child: Widget, width: Int32 = 720) -> Widget {
        let c = adw_clamp_new()!
        adw_clamp_set_maximum_size(c.as(), width)
        adw_clamp_set_child(c.as(), child)
        return c
    }

    public static func icon(_ name: String, size: Int32 = 16) -> Widget {
        let i = gtk_image_new_from_icon_name(name)!
        gtk_image_set_pixel_size(i.as(), size)
        return i
    }
}

/// Removes every child of a box or list box.
public func removeChildren(_ container: Widget) {
    while let child = gtk_widget_get_first_child(container) {
        if GTK_IS_LIST_BOX(container) { gtk_list_box_remove(container.as(), child) } else { gtk_box_remove(container.as(), child) }
    }
}

@inline(__always) func GTK_IS_LIST_BOX(_ w: Widget) -> Bool {
    g_type_check_instance_is_a(UnsafeMutableRawPointer(w).assumingMemoryBound(to: GTypeInstance.self), gtk_list_box_get_type()) != 0
}

/// The text of an editable (entry, search entry).
public func text(of editable: Widget) -> String {
    String(cString: gtk_editable_get_text(editable.as()))
}
