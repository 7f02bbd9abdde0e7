// GTK 4 and libadwaita as Debian 12 ships them (GTK 4.8, libadwaita 1.2), for the Engram window.
//
// Swift imports the whole API through this one header. What it cannot call directly is wrapped here, each a line:
// C macros (g_signal_connect) and variadic functions (accessible properties, message dialogs, g_object_set).
#pragma once
#include <adwaita.h>

/// g_signal_connect_data without the macro; `destroy` releases `data` when the handler goes.
static inline gulong engram_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data,
                                           GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/// The name a screen reader (and an AT-SPI test) reads for `widget`.
static inline void engram_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/// A longer description for `widget`, read after its name.
static inline void engram_accessible_description(GtkWidget *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/// A message dialog whose heading and body are plain text (never markup).
static inline GtkWidget *engram_message_dialog(GtkWindow *parent, const char *heading, const char *body) {
    GtkWidget *d = adw_message_dialog_new(parent, heading, NULL);
    adw_message_dialog_set_body(ADW_MESSAGE_DIALOG(d), body);
    return d;
}

/// Runs `fn(data)` once on the main loop, then `destroy(data)`.
static inline guint engram_idle(GSourceFunc fn, gpointer data, GDestroyNotify destroy) {
    return g_idle_add_full(G_PRIORITY_DEFAULT, fn, data, destroy);
}

/// Runs `fn(data)` after `ms` milliseconds on the main loop, then `destroy(data)`.
static inline guint engram_timeout(guint ms, GSourceFunc fn, gpointer data, GDestroyNotify destroy) {
    return g_timeout_add_full(G_PRIORITY_DEFAULT, ms, fn, data, destroy);
}

/// Sets a string property (g_object_set is variadic).
static inline void engram_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

/// Sets a boolean property.
static inline void engram_set_bool(gpointer object, const char *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}

/// The platform data's activation token for a remote activation (Wayland's xdg-activation, or X11's startup id).
static inline const char *engram_variant_lookup_string(GVariant *dict, const char *key) {
    const char *value = NULL;
    if (dict && g_variant_lookup(dict, key, "&s", &value)) return value;
    return NULL;
}
