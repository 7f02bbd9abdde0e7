/* LD_PRELOAD for the headless gnome-shell 43 of the real-shell tests.
 *
 * Outside systemd the shell starts ibus-daemon itself through GLib.spawn_async with a JavaScript child_setup,
 * and that forked child can deadlock (about one start in a hundred hung here). Inside a systemd user unit the
 * shell instead asks org.freedesktop.systemd1 whether IBus has a unit and, when it has, leaves IBus to systemd.
 * This answers libsystemd's "which user unit runs this pid" as if the shell ran in its usual unit; the harness's
 * stand-in systemd (fake_systemd.py) then says IBus has one, so nothing is spawned. Nothing else changes. */
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

int sd_pid_get_user_unit(pid_t pid, char **unit) {
    (void)pid;
    if (unit == NULL) return -22; /* -EINVAL, as libsystemd */
    *unit = strdup("org.gnome.Shell@wayland.service");
    return *unit ? 0 : -12;       /* -ENOMEM */
}
