// Engram in GNOME Shell's top bar (45 and later; scripts/gnome-extension-legacy.py writes the 43–44 variant).

import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {EngramIndicator} from './indicator.js';

export default class EngramExtension extends Extension {
    enable() {
        this._indicator = new EngramIndicator();
        Main.panel.addToStatusArea(this.uuid, this._indicator);
    }

    disable() {
        this._indicator?.destroy();
        this._indicator = null;
    }
}
