// What each section of `config.toml` holds, for the configuration reference (`engram config keys`,
// docs/configuration.md) and whatever else shows the settings; the rules themselves are each section's `read`.

extension SearchSettings {
    public static let summary = "How results are ranked and how many are shown, and search by meaning."
    public static let keys = [
        ConfigKey("decay_weight", takes: "a number, 0 or more (0 ranks by text alone)", default: .number(1), example: .number(0.5),
                  "how much a memory's freshness weighs against how well its text matches"),
        ConfigKey("limit", takes: "a whole number, 1 or more", default: .number(10), example: .number(25),
                  "results shown when a command or surface asks for no number"),
        ConfigKey("semantic", takes: "true or false", default: .bool(true), example: .bool(false),
                  "also find by meaning when the model is installed; false: by words only"),
        ConfigKey("model_dir", takes: "a folder (`~/` is your home)", default: nil,
                  unset: "where `make`, `make install` or the package put it", example: .string("/opt/engram-model"),
                  "where the meaning model and its engine (`libe5.so`) are"),
        ConfigKey("model", takes: "a model file name in `model_dir`", default: .string("e5-small-q4.bin"),
                  example: .string("e5-small-enpt-q4.bin"),
                  "which model: the multilingual one, or `e5-small-enpt-q4.bin` (English and Portuguese, a third of the size)"),
    ]
}

extension DecayModel {
    public static let summary = "The forgetting curve: how fast an unused memory fades from search, and how much each use slows it."
    public static let keys = [
        ConfigKey("half_life_days", takes: "a table of days per type (note, idea, task, quote, learning), each above 0",
                  default: .table(["note": .number(30), "idea": .number(45), "task": .number(14), "quote": .number(120), "learning": .number(60)]),
                  example: .table(["task": .number(7)]),
                  "the days an unused memory of each type takes to lose half its strength; the types left out keep theirs"),
        ConfigKey("reinforcement_factor", takes: "a number, 1 or more", default: .number(1.8), example: .number(2.5),
                  "how much each use (opened, reviewed, found and chosen) multiplies a memory's half-life"),
    ]
}

extension IndexSettings {
    public static let summary = "How the search index follows the store."
    public static let keys = [
        ConfigKey("batch_size", takes: "a whole number from 1 to 100000", default: .number(1000), example: .number(50),
                  "store changes applied per index commit"),
        ConfigKey("compact_after_forget_seconds", takes: "seconds from 0 to 3600", default: .number(10), example: .number(60),
                  "how long the daemon waits after a forget before compacting the index, so nothing forgotten stays in its files (forgets meanwhile share it)"),
        ConfigKey("auto_link", takes: "a whole number, 0 or more (0: off)", default: .number(3), example: .number(5),
                  "each new memory is linked to up to this many related ones"),
        ConfigKey("auto_link_min_score", takes: "a number from 0 to 1", default: .number(0.35), example: .number(0.5),
                  "how alike two memories must be to be linked (the “% alike” `engram related` shows, / 100)"),
    ]
}

extension DesktopSettings {
    public static let summary = "What opening a result from GNOME Shell or KRunner does."
    public static let keys = [
        ConfigKey("open", takes: "\"app\", \"terminal\" or \"none\"", default: .string("app"), example: .string("terminal"),
                  "\"app\": Engram's window; \"terminal\": `engram show` in a terminal (also what \"app\" does without engram-app); \"none\": only strengthen it"),
        ConfigKey("terminal", takes: "a list of words: a terminal's command", default: nil,
                  unset: "`$TERMINAL`, else Console, GNOME Terminal, Konsole, xfce4-terminal or x-terminal-emulator",
                  example: .list([.string("kgx"), .string("--")]), "the terminal Engram runs its commands in; Engram's command is appended"),
        ConfigKey("min_letters", takes: "a whole number from 1 to 20", default: .number(3), example: .number(2),
                  "KRunner asks Engram from this many letters on"),
    ]
}

extension DaemonSettings {
    public static let summary = "The daemon's housekeeping."
    public static let keys = [
        ConfigKey("sweep_interval", takes: "seconds from 1 to 604800", default: nil, unset: "every hour",
                  example: .number(600), "how often faded items leave the index; the first sweep runs a minute after the daemon starts"),
    ]
}

extension SyncSettings {
    public static let summary = "Every machine: the folder shared with your other devices (through Syncthing), and handoff."
    public static let keys = [
        ConfigKey("folder", takes: "a folder's full path (`~/` is your home)", default: nil, unset: "sync is off",
                  example: .string("/home/you/Sync/engram"), "the folder your devices share; `engram sync setup` makes it a Syncthing folder"),
        ConfigKey("handoff_minutes", takes: "minutes from 0 to 1440 (0: off)", default: .number(15), example: .number(5),
                  "how long another device's activity is offered to continue here"),
    ]
}

extension PrivacySettings {
    public static let summary = "Integrations you can turn off; every one runs unless set to false."
    public static let keys = [
        ConfigKey("gnome", takes: "true or false", default: .bool(true), example: .bool(false), "Engram's results in GNOME Shell's overview"),
        ConfigKey("krunner", takes: "true or false", default: .bool(true), example: .bool(false), "Engram's matches in KRunner and Plasma's launcher"),
        ConfigKey("feeds", takes: "true or false", default: .bool(true), example: .bool(false), "the feeds that status bars, widgets and launchers show"),
        ConfigKey("notifications", takes: "true or false", default: .bool(true), example: .bool(false), "notifications: live sessions, results of shortcuts and reminders"),
        ConfigKey("voice", takes: "true or false", default: .bool(true), example: .bool(false), "listening (`engram listen` and every microphone button)"),
    ]
}

extension VoiceSettings {
    public static let summary = "Push-to-talk (`engram listen`): who hears the words, who speaks the answers, when a recording ends."
    public static let keys = [
        ConfigKey("stt", takes: "\"local\" or \"tcp://HOST:PORT\"", default: .string("local"), example: .string("tcp://127.0.0.1:10300"),
                  "\"local\": recognised on this machine; an address: a Wyoming speech server (Home Assistant's, wyoming-faster-whisper)"),
        ConfigKey("tts", takes: "\"auto\", \"speech-dispatcher\", \"espeak-ng\", \"none\" or \"tcp://HOST:PORT\"", default: .string("auto"),
                  example: .string("none"), "who says the answers: \"auto\" is speech-dispatcher if installed, else espeak-ng in the process; an address: a Wyoming voice such as Piper"),
        ConfigKey("max_seconds", takes: "seconds from 1 to 120", default: .number(10), example: .number(15), "the longest recording"),
        ConfigKey("silence_seconds", takes: "seconds from 0.3 to 10", default: .number(0.8), example: .number(1.2),
                  "a pause this long after you speak ends the recording"),
        ConfigKey("lead_seconds", takes: "seconds from 1 to 60", default: .number(5), example: .number(20),
                  "how long listening waits for you to start speaking before it ends, having heard nothing (at most `max_seconds`)"),
        ConfigKey("answer_seconds", takes: "seconds from 0 to 60 (0: off)", default: .number(6), example: .number(0),
                  "how long a question waits for a spoken answer (“yes”, “the second one”, “cancel”)"),
        ConfigKey("model_dir", takes: "a folder's full path (`~/` is your home)", default: nil,
                  unset: "where `make`, `make install` or the package put it", example: .string("/opt/engram-speech"),
                  "where the speech model is"),
    ]
}
