// Engram's daemon as the indicator sees it: org.engram.Engram1 on the session bus, followed, never polled.
//
// A Gio.DBusProxy that never starts the daemon (DO_NOT_AUTO_START) follows the name's owner (NameOwnerChanged)
// and the interface's properties (PropertiesChanged, cached by the proxy); methods are called only while the
// daemon runs. The memory of the day has no method on the bus: it is the `engram-feed motd` that status bars
// show, run once when asked (the same store, the same draw of the day).

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

export const BUS_NAME = 'org.engram.Engram';
const OBJECT_PATH = '/org/engram/Engram';
const INTERFACE = 'org.engram.Engram1';
const CALL_TIMEOUT_MS = 10000;

/** True for the error a cancelled call ends with (the extension was disabled meanwhile). */
export function isCancelled(error) {
    return error instanceof GLib.Error && error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED);
}

export class EngramClient {
    /**
     * @param {object} handlers - onOwner(running), when the daemon appears or goes; onProperties(names),
     *   the names of the properties that changed (all of them when the daemon appears)
     */
    constructor({onOwner, onProperties}) {
        this._onOwner = onOwner;
        this._onProperties = onProperties;
        this._cancellable = new Gio.Cancellable();
        this._proxy = null;
        this._signals = [];
    }

    /** Connects the proxy (asynchronously); the handlers are called from then on. */
    start() {
        Gio.DBusProxy.new(Gio.DBus.session, Gio.DBusProxyFlags.DO_NOT_AUTO_START, null,
            BUS_NAME, OBJECT_PATH, INTERFACE, this._cancellable, (source, result) => {
                try {
                    this._proxy = Gio.DBusProxy.new_finish(result);
                } catch (e) {
                    if (!isCancelled(e))
                        console.warn(`Engram: cannot follow ${BUS_NAME}: ${e.message}`);
                    return;
                }
                this._signals = [
                    this._proxy.connect('notify::g-name-owner', () => this._onOwner(this.running)),
                    this._proxy.connect('g-properties-changed', (proxy, changed, invalidated) => {
                        const names = Object.keys(changed.deepUnpack()).concat(invalidated);
                        if (names.length > 0)
                            this._onProperties(names);
                    }),
                ];
                this._onOwner(this.running);
            });
    }

    /** Stops following and cancels every call in flight (their callbacks then do nothing). */
    destroy() {
        this._cancellable.cancel();
        if (this._proxy)
            this._signals.forEach(id => this._proxy.disconnect(id));
        this._signals = [];
        this._proxy = null;
    }

    /** Whether the daemon owns its name now. */
    get running() {
        return this._proxy !== null && this._proxy.g_name_owner !== null;
    }

    /**
     * A property's cached value (as the daemon last announced it), or fallback while the daemon is away.
     *
     * @param {string} name - MemoryCount, TodayCount, StreakDays, ActiveContext, ActiveSession…
     * @param {*} fallback - returned when the value is unknown
     */
    property(name, fallback) {
        const value = this.running ? this._proxy.get_cached_property(name) : null;
        return value ? value.deepUnpack() : fallback;
    }

    /**
     * Calls a method of org.engram.Engram1 (never starting the daemon); resolves to the unpacked reply.
     *
     * @param {string} method - the method's name
     * @param {?GLib.Variant} params - its arguments as a tuple, or null
     * @returns {Promise<Array>}
     */
    call(method, params = null) {
        return new Promise((resolve, reject) => {
            if (!this.running) {
                reject(new Error('Engram is not running'));
                return;
            }
            this._proxy.call(method, params, Gio.DBusCallFlags.NO_AUTO_START, CALL_TIMEOUT_MS,
                this._cancellable, (proxy, result) => {
                    try {
                        resolve(proxy.call_finish(result).deepUnpack());
                    } catch (e) {
                        reject(e);
                    }
                });
        });
    }

    /**
     * An intent method (DailyReview, PauseSession…): resolves to {sentence, result} with result parsed.
     *
     * @param {string} method - the intent's method
     * @param {?GLib.Variant} params - its arguments
     */
    async intent(method, params = null) {
        const [sentence, json] = await this.call(method, params);
        let result = null;
        try {
            result = JSON.parse(json).result ?? null;
        } catch (e) {
            result = null;
        }
        return {sentence, result};
    }

    /**
     * Stores a memory through the daemon's Remember; resolves to the sentence to show.
     *
     * @param {string} content - what the person typed
     */
    async remember(content) {
        const params = new GLib.Variant('(ssasss)', [content, '', [], '', GLib.uuid_string_random()]);
        const [, sentence] = await this.call('Remember', params);
        return sentence;
    }

    /** Starts the daemon through D-Bus activation (what its "not running" row offers). */
    startDaemon() {
        Gio.DBus.session.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
            'StartServiceByName', new GLib.Variant('(su)', [BUS_NAME, 0]), null, Gio.DBusCallFlags.NONE, -1,
            this._cancellable, (connection, result) => {
                try {
                    connection.call_finish(result);
                } catch (e) {
                    if (!isCancelled(e))
                        console.warn(`Engram: cannot start the daemon: ${e.message}`);
                }
            });
    }

    /**
     * The memory of the day as `engram-feed motd --format json` prints it ({memory, message, state…}).
     *
     * @returns {Promise<object>}
     */
    memoryOfTheDay() {
        return new Promise((resolve, reject) => {
            let proc;
            try {
                proc = Gio.Subprocess.new(['engram-feed', 'motd', '--format', 'json'],
                    Gio.SubprocessFlags.STDOUT_PIPE | Gio.SubprocessFlags.STDERR_SILENCE);
            } catch (e) {
                reject(e);
                return;
            }
            proc.communicate_utf8_async(null, this._cancellable, (p, result) => {
                try {
                    const [, stdout] = p.communicate_utf8_finish(result);
                    resolve(JSON.parse(stdout));
                } catch (e) {
                    reject(e);
                }
            });
        });
    }
}
