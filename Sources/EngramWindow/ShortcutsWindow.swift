import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

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
