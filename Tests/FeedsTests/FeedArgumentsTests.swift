import Foundation
@testable import Feeds
import Testing

/// The one parser behind `engram feed` and `engram-feed`.
@Suite struct FeedArgumentsTests {
    @Test("long, short and --flag=value forms give the same options")
    func forms() throws {
        let long = try FeedArguments.parse(["review", "--format", "waybar", "--size", "large", "--limit", "5", "--data-dir", "/d"])
        let short = try FeedArguments.parse(["-f", "waybar", "review", "-s", "large", "-l", "5", "--data-dir=/d"])
        let inline = try FeedArguments.parse(["review", "--format=waybar", "--size=large", "--limit=5", "--data-dir", "/d"])
        #expect(long == short)
        #expect(long == inline)
        #expect(long?.name == .review && long?.format == .waybar && long?.size == .large && long?.limit == 5 && long?.dataDirectory == "/d")
    }

    @Test("defaults: text, medium, no watch, five seconds")
    func defaults() throws {
        let o = try #require(try FeedArguments.parse(["motd"]))
        #expect(o.format == .text && o.size == .medium && !o.watch && o.interval == 5 && o.limit == nil)
    }

    @Test("--parsed turns conky into conky-parsed; --watch is for streaming sinks")
    func sinks() throws {
        #expect(try FeedArguments.parse(["motd", "--format", "conky", "--parsed"])?.sink == .conkyParsed)
        #expect(try FeedArguments.parse(["session", "--format", "waybar", "--watch", "--interval", "2"])?.interval == 2)
    }

    @Test("help is asked for, not an error")
    func help() throws {
        #expect(try FeedArguments.parse(["--help"]) == nil)
        #expect(try FeedArguments.parse(["motd", "-h"]) == nil)
    }

    @Test("mistakes are refused with a sentence naming the problem", arguments: [
        ([], "which feed"), (["weather"], "weather"), (["motd", "stats"], "extra"), (["motd", "--size", "huge"], "huge"),
        (["motd", "--format"], "needs a value"), (["motd", "--limit", "0"], "--limit"), (["motd", "--interval", "0.1"], "--interval"),
        (["motd", "--parsed"], "--parsed"), (["motd", "--format", "rofi", "--watch"], "--watch"), (["motd", "--colour"], "--colour"),
    ] as [([String], String)])
    func mistakes(_ args: [String], _ mentions: String) {
        #expect {
            _ = try FeedArguments.parse(args)
        } throws: { error in
            (error as? FeedUsageError)?.message.contains(mentions) == true
        }
    }
}

/// The store's tags column, read without Foundation.
@Suite struct TagColumnTests {
    @Test("JSON arrays of strings decode as JSONSerialization would", arguments: [
        "[]", "[\"a\"]", "[\"swift\",\"concurrency\"]", " [ \"x y\" , \"é🇫🇷\" ] ", "[\"a\\\"b\",\"c\\\\d\",\"\\u00e9\\ud83d\\ude00\",\"\\n\"]",
    ])
    func decodes(_ json: String) throws {
        let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(JSONStringArray.decode(json) == expected)
    }

    @Test("anything else is no tags, not a crash", arguments: ["not json", "", "[", "[\"open", "[1,2]", "{\"a\":1}", "[\"a\" \"b\"]"])
    func refuses(_ text: String) {
        #expect(JSONStringArray.decode(text) == [])
    }
}
