// The learning session as the daemon's ActiveSession property carries it, and its elapsed time.
// Pure functions: no shell, no bus (the indicator ticks them once a second while a session runs).

/**
 * The session object of an ActiveSession value, or null when none runs (empty or unreadable JSON).
 *
 * @param {string} json - the property's value
 * @returns {?object} id, title, state (running, paused), resumed, elapsed_seconds, curriculum, topic…
 */
export function parseSession(json) {
    if (!json)
        return null;
    try {
        const session = JSON.parse(json);
        return session && typeof session === 'object' && session.id ? session : null;
    } catch (e) {
        return null;
    }
}

/**
 * Whole seconds studied: elapsed_seconds (up to `resumed`) plus the time since `resumed` while running.
 *
 * @param {object} session - from parseSession
 * @param {number} nowMs - the clock, in milliseconds since the epoch
 * @returns {number}
 */
export function elapsedSeconds(session, nowMs = Date.now()) {
    let seconds = Number(session.elapsed_seconds) || 0;
    if (session.state === 'running' && session.resumed) {
        const since = Date.parse(session.resumed);
        if (!Number.isNaN(since))
            seconds += Math.max(0, (nowMs - since) / 1000);
    }
    return Math.floor(seconds);
}

/**
 * "4:05", "12:00", "1:02:03": minutes and seconds, hours when there are any.
 *
 * @param {number} seconds - whole seconds
 * @returns {string}
 */
export function formatElapsed(seconds) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor(seconds / 60) % 60;
    const s = seconds % 60;
    const mm = String(m).padStart(h > 0 ? 2 : 1, '0');
    const ss = String(s).padStart(2, '0');
    return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * The first line of a memory, cut at a word near `max` characters, for a menu row.
 *
 * @param {string} text - the memory's text or title
 * @param {number} max - characters at most (before the ellipsis)
 * @returns {string}
 */
export function firstLine(text, max = 160) {
    const line = String(text ?? '').split('\n').find(l => l.trim() !== '') ?? '';
    if (line.length <= max)
        return line;
    const cut = line.lastIndexOf(' ', max);
    return `${line.slice(0, cut > max / 2 ? cut : max)}…`;
}
