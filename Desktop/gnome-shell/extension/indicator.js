// Engram's top-bar button and its menu: the live learning session, today's count, the memory of the day,
// what is about to fade, a capture entry, push-to-talk (lit in the top bar while it listens) and "Open Engram".
//
// Everything follows the daemon (client.js): the button and the counts from its properties, the memory of the
// day and the fading list fetched when the menu opens and, while it is open, when a property changes. The only
// timer is the one-second tick of a running session's elapsed time. Memory text is set as St.Label text, never
// as markup: "<b>x</b>" or "${exec …}" show as typed.

import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Pango from 'gi://Pango';
import Shell from 'gi://Shell';
import St from 'gi://St';

import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import {EngramClient, isCancelled} from './client.js';
import {elapsedSeconds, firstLine, formatElapsed, parseSession} from './session.js';

const DESKTOP_ID = 'org.engram.Engram.desktop';
// Engram's symbolic icon (hicolor, installed with it); the stock one where only the extension is installed.
const ICON_NAMES = ['org.engram.Engram-symbolic', 'accessories-dictionary-symbolic'];
const FADING_ROWS = 3;
// The properties after which the menu's content (memory of the day, fading list) may differ.
const CONTENT_PROPERTIES = ['MemoryCount', 'TodayCount', 'ActiveContext', 'IndexedChange'];

/** A row that only shows text (a heading, a count), named for the tests that read the menu back. */
function textRow(name, text, styleClass = null) {
    const row = new PopupMenu.PopupMenuItem(text, {reactive: false, can_focus: false});
    row.name = name;
    if (styleClass)
        row.add_style_class_name(styleClass);
    return row;
}

/** A row showing a memory's first line, wrapped, that opens it in Engram. */
function memoryRow(name, text, onActivate) {
    const row = new PopupMenu.PopupMenuItem(firstLine(text));
    row.name = name;
    row.add_style_class_name('engram-memory');
    row.label.clutter_text.line_wrap = true;
    row.label.clutter_text.line_wrap_mode = Pango.WrapMode.WORD_CHAR;
    row.label.clutter_text.ellipsize = Pango.EllipsizeMode.NONE;
    row.connect('activate', onActivate);
    return row;
}

export const EngramIndicator = GObject.registerClass(
class EngramIndicator extends PanelMenu.Button {
    _init() {
        super._init(0.5, 'Engram', false);
        this.name = 'engram-indicator';
        this._session = null;
        this._tickId = 0;
        this._refreshing = false;
        this._stale = false;
        this._destroyed = false;

        const box = new St.BoxLayout({style_class: 'panel-status-menu-box'});
        this._icon = new St.Icon({gicon: new Gio.ThemedIcon({names: ICON_NAMES}), style_class: 'system-status-icon'});
        this._elapsed = new St.Label({name: 'engram-elapsed', text: '', visible: false,
            y_align: Clutter.ActorAlign.CENTER, style_class: 'engram-elapsed'});
        this._pausedIcon = new St.Icon({name: 'engram-paused', icon_name: 'media-playback-pause-symbolic',
            style_class: 'system-status-icon', visible: false});
        // Lit while push-to-talk records (the daemon's Listening), from the menu, a keybinding or the window.
        this._listeningIcon = new St.Icon({name: 'engram-listening', icon_name: 'audio-input-microphone-symbolic',
            style_class: 'system-status-icon', visible: false});
        box.add_child(this._icon);
        box.add_child(this._listeningIcon);
        box.add_child(this._elapsed);
        box.add_child(this._pausedIcon);
        this.add_child(box);

        this._buildMenu();
        this._client = new EngramClient({
            onOwner: running => this._ownerChanged(running),
            onProperties: names => this._propertiesChanged(names),
        });
        this._ownerChanged(false);
        this._client.start();
        this.menu.connect('open-state-changed', (menu, open) => {
            if (open && this._client.running)
                this._refresh();
        });
        this.connect('destroy', () => this._teardown());
    }

    _buildMenu() {
        const menu = this.menu;
        this._offline = new PopupMenu.PopupMenuItem('Engram is not running — start it');
        this._offline.name = 'engram-offline';
        this._offline.connect('activate', () => this._client.startDaemon());
        menu.addMenuItem(this._offline);

        // The learning session: what, how long, and its controls.
        this._sessionSection = new PopupMenu.PopupMenuSection();
        this._sessionRow = textRow('engram-session', '', 'engram-heading');
        this._sessionTime = new St.Label({name: 'engram-session-time', text: '', x_expand: true,
            x_align: Clutter.ActorAlign.END, y_align: Clutter.ActorAlign.CENTER});
        this._sessionRow.add_child(this._sessionTime);
        this._sessionSection.addMenuItem(this._sessionRow);
        this._pause = this._action('engram-pause', 'Pause', 'PauseSession');
        this._resume = this._action('engram-resume', 'Resume', 'ResumeSession');
        this._stop = this._action('engram-stop', 'Stop', 'StopSession');
        [this._pause, this._resume, this._stop].forEach(item => this._sessionSection.addMenuItem(item));
        this._sessionSection.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        menu.addMenuItem(this._sessionSection);

        // Today, the memory of the day and what is about to fade.
        this._content = new PopupMenu.PopupMenuSection();
        this._today = textRow('engram-today', '');
        this._content.addMenuItem(this._today);
        this._content.addMenuItem(textRow('engram-motd-heading', 'Memory of the day', 'engram-heading'));
        this._motd = memoryRow('engram-motd', '…', () => this._open(this._motd.url));
        this._content.addMenuItem(this._motd);
        this._content.addMenuItem(textRow('engram-fading-heading', 'About to fade', 'engram-heading'));
        this._fading = new PopupMenu.PopupMenuSection();
        this._content.addMenuItem(this._fading);
        this._content.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());

        // Capture: Enter stores what was typed through the daemon's Remember.
        // (The answer goes in a row of its own: St.BoxLayout's `vertical` is deprecated from 48, `orientation` new.)
        this._captureRow = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
        this._captureRow.name = 'engram-capture-row';
        this._entry = new St.Entry({name: 'engram-capture', hint_text: 'Remember…', can_focus: true,
            x_expand: true, style_class: 'engram-capture', accessible_name: 'Remember'});
        this._entry.clutter_text.connect('activate', () => this._capture());
        this._captureRow.add_child(this._entry);
        this._content.addMenuItem(this._captureRow);
        this._captureStatus = textRow('engram-capture-status', '', 'engram-capture-status');
        this._captureStatus.label.clutter_text.line_wrap = true;
        this._captureStatus.label.clutter_text.line_wrap_mode = Pango.WrapMode.WORD_CHAR;
        this._captureStatus.visible = false;
        this._content.addMenuItem(this._captureStatus);
        menu.addMenuItem(this._content);

        // Push-to-talk: the daemon's Listen starts `engram listen`, or stops the one listening.
        this._listen = new PopupMenu.PopupImageMenuItem('Listen', 'audio-input-microphone-symbolic');
        this._listen.name = 'engram-listen';
        this._listen.connect('activate', () => this._toggleListening());
        this._content.addMenuItem(this._listen);
        this._listenStatus = textRow('engram-listen-status', '', 'engram-capture-status');
        this._listenStatus.visible = false;
        this._content.addMenuItem(this._listenStatus);

        this._openItem = new PopupMenu.PopupMenuItem('Open Engram');
        this._openItem.name = 'engram-open';
        this._openItem.connect('activate', () => this._launchApp());
        menu.addMenuItem(this._openItem);
    }

    /** A menu item that runs a session intent (PauseSession, ResumeSession, StopSession). */
    _action(name, text, method) {
        const item = new PopupMenu.PopupMenuItem(text);
        item.name = name;
        item.connect('activate', () => {
            this._client.intent(method).catch(e => this._failed(`${text}`, e));
        });
        return item;
    }

    _failed(what, error) {
        // Cancelled (disabled meanwhile) or the daemon gone (the indicator already says so): nothing to report.
        if (this._destroyed || isCancelled(error) || !this._client.running)
            return;
        console.warn(`Engram: ${what}: ${error.message}`);
    }

    // ------------------------------------------------------------------ following the daemon

    _ownerChanged(running) {
        if (this._destroyed)
            return;
        this._icon.opacity = running ? 255 : 110;
        if (running)
            this.remove_style_class_name('engram-offline');
        else
            this.add_style_class_name('engram-offline');
        this._offline.visible = !running;
        this._content.actor.visible = running;
        this._showProperties();
        if (running && this.menu.isOpen)
            this._refresh();
    }

    _propertiesChanged(names) {
        if (this._destroyed)
            return;
        this._showProperties();
        if (this.menu.isOpen && names.some(n => CONTENT_PROPERTIES.includes(n)))
            this._refresh();
    }

    _showProperties() {
        const c = this._client;
        const today = c.property('TodayCount', 0), total = c.property('MemoryCount', 0);
        const streak = c.property('StreakDays', 0), context = c.property('ActiveContext', '');
        const parts = [`Today: ${today} captured`, `${total} memories`];
        if (streak > 0)
            parts.push(`${streak}-day streak`);
        if (context)
            parts.push(`context ${context}`);
        this._today.label.text = parts.join(' · ');
        const listening = c.running && c.property('Listening', false);
        this._listeningIcon.visible = listening;
        this._listen.label.text = listening ? 'Stop listening' : 'Listen';
        this._showSession(parseSession(c.property('ActiveSession', '')));
    }

    // ------------------------------------------------------------------ the session and its tick

    _showSession(session) {
        this._session = session;
        this._sessionSection.actor.visible = session !== null;
        this._elapsed.visible = session !== null;
        this._pausedIcon.visible = session !== null && session.state !== 'running';
        if (session) {
            this._sessionRow.label.text = session.title || session.curriculum || 'Learning session';
            this._pause.visible = session.state === 'running';
            this._resume.visible = session.state !== 'running';
        }
        this._tick();
        const ticking = session !== null && session.state === 'running';
        if (ticking && this._tickId === 0) {
            this._tickId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 1000, () => {
                this._tick();
                return GLib.SOURCE_CONTINUE;
            });
        } else if (!ticking) {
            this._stopTick();
        }
    }

    _tick() {
        const s = this._session;
        if (!s)
            return;
        const time = formatElapsed(elapsedSeconds(s));
        this._elapsed.text = time;
        this._sessionTime.text = s.state === 'running' ? time : `${time} · paused`;
    }

    _stopTick() {
        if (this._tickId !== 0) {
            GLib.source_remove(this._tickId);
            this._tickId = 0;
        }
    }

    // ------------------------------------------------------------------ content fetched from the daemon

    /** Fetches the memory of the day and the fading list; a change during a fetch fetches once more after. */
    async _refresh() {
        if (this._refreshing) {
            this._stale = true;
            return;
        }
        this._refreshing = true;
        try {
            do {
                this._stale = false;
                // eslint-disable-next-line no-await-in-loop
                await Promise.all([this._refreshMotd(), this._refreshFading()]);
            } while (this._stale && !this._destroyed);
        } finally {
            this._refreshing = false;
        }
    }

    async _refreshMotd() {
        let text, url = null;
        try {
            const feed = await this._client.memoryOfTheDay();
            const memory = feed.memory;
            text = memory ? memory.title || memory.content : feed.message || 'Nothing to resurface yet';
            url = memory ? `engram://memory/${memory.id}` : null;
        } catch (e) {
            if (isCancelled(e) || this._destroyed)
                return;
            text = 'The memory of the day needs engram-feed on PATH';
        }
        if (this._destroyed)
            return;
        this._motd.label.text = firstLine(text);
        this._motd.url = url;
        this._motd.reactive = url !== null;
    }

    async _refreshFading() {
        let items;
        try {
            const {result} = await this._client.intent('DailyReview', new GLib.Variant('(i)', [FADING_ROWS]));
            items = result?.items ?? [];
        } catch (e) {
            this._failed('the daily review', e);
            return;
        }
        if (this._destroyed)
            return;
        this._fading.removeAll();
        for (const item of items.slice(0, FADING_ROWS))
            this._fading.addMenuItem(memoryRow('engram-fading', item.title, () => this._open(item.url)));
        if (items.length === 0)
            this._fading.addMenuItem(textRow('engram-fading-none', 'Nothing about to fade'));
    }

    // ------------------------------------------------------------------ what a person does in the menu

    async _capture() {
        const content = this._entry.get_text().trim();
        if (!content)
            return;
        this._entry.reactive = false;
        let sentence;
        try {
            sentence = await this._client.remember(content);
            if (!this._destroyed)
                this._entry.set_text('');
        } catch (e) {
            if (isCancelled(e) || this._destroyed)
                return;
            sentence = `Not saved: ${e.message.replace(/^GDBus\.Error:\S+ /, '')}`;
        }
        if (this._destroyed)
            return;
        this._entry.reactive = true;
        this._captureStatus.label.text = sentence;
        this._captureStatus.visible = true;
    }

    /** Starts or stops push-to-talk; what it hears and does is told by its notification, and the top bar's
     * microphone is lit while it records. Only a refusal (listening turned off, no daemon) stays in the menu. */
    async _toggleListening() {
        let refusal = '';
        try {
            await this._client.call('Listen');
        } catch (e) {
            if (isCancelled(e) || this._destroyed)
                return;
            refusal = `Cannot listen: ${e.message.replace(/^GDBus\.Error:\S+ /, '')}`;
        }
        if (this._destroyed)
            return;
        this._listenStatus.label.text = refusal;
        this._listenStatus.visible = refusal !== '';
    }

    _open(url) {
        if (url)
            this._client.call('Open', new GLib.Variant('(s)', [url])).catch(e => this._failed(`opening ${url}`, e));
    }

    _launchApp() {
        const app = Shell.AppSystem.get_default().lookup_app(DESKTOP_ID);
        try {
            if (app)
                app.activate();
            else
                GLib.spawn_command_line_async('engram-app');
        } catch (e) {
            console.warn(`Engram: cannot open Engram: ${e.message}`);
        }
    }

    _teardown() {
        this._destroyed = true;
        this._stopTick();
        this._client.destroy();
    }
});
