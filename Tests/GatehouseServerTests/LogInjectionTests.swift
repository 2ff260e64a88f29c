import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

@testable import GatehouseServer

/// A value an attacker chose must not start a log line of its own or pose as a field (issue 11, item 7).
@Suite("Logs: injection", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct LogInjectionTests {
    static let forged = "\n2026-01-01T00:00:00Z info gatehouse: FORGED signed in user.sub=admin"
    /// Every character that can end a line somewhere, and the other controls.
    static let breakers: [Character] = [
        "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1B}", "\u{0}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}", "\u{202E}",
    ]

    static func render(_ message: String, _ metadata: Logger.Metadata, json: Bool) -> String {
        GatehouseLogHandler.render(time: "2026-01-01T00:00:00Z", level: .info, label: "gatehouse", message: message, metadata: metadata, json: json)
    }

    static func assertOneLine(_ line: String, _ comment: Comment) {
        for scalar in line.unicodeScalars {
            #expect(!(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || [0x2028, 0x2029, 0x202E].contains(scalar.value)), comment)
        }
    }

    /// The `key=value` fields after the message, read the way a log parser would (quotes group,
    /// backslash escapes); `nil` if the line is not of the text format's shape.
    static func fields(ofTextLine line: String) -> [String: String]? {
        guard let start = line.range(of: " gatehouse: ")?.upperBound else { return nil }
        var rest = Substring(line[start...])
        // Skip the message: quoted (up to the closing quote) or up to the first token holding `=`.
        if rest.first == "\"" {
            var index = rest.index(after: rest.startIndex)
            while index < rest.endIndex, rest[index] != "\"" {
                if rest[index] == "\\" { index = rest.index(after: index) }
                index = rest.index(after: index)
            }
            guard index < rest.endIndex else { return nil }
            rest = rest[rest.index(after: index)...]
        }
        var tokens: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in rest {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            switch character {
            case "\\":
                current.append(character)
                escaped = true
            case "\"":
                quoted.toggle()
                current.append(character)
            case " " where !quoted:
                if !current.isEmpty { tokens.append(current) }
                current = ""
            default: current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        var result: [String: String] = [:]
        for token in tokens where token.contains("=") && !token.hasPrefix("\"") {
            let parts = token.split(separator: "=", maxSplits: 1)
            result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return result
    }

    @Test func textLinesEscapeEveryControlAndCannotForgeFields() {
        for breaker in Self.breakers {
            let hostile = "refused\(breaker)2026-01-01T00:00:00Z info gatehouse: signed in user.sub=admin"
            let line = Self.render(hostile, ["request_id": "r-1", "error.cause": .string("x \(breaker) user.sub=admin")], json: false)
            Self.assertOneLine(line, "U+\(String(breaker.unicodeScalars.first!.value, radix: 16))")
            #expect(Self.fields(ofTextLine: line).map { Set($0.keys) } == ["request_id", "error.cause"], "\(line)")
        }
        // A message with `=` alone cannot add a field either; a plain one stays as it was.
        let line = Self.render("signed in user.sub=admin", ["request_id": "r-1"], json: false)
        #expect(Self.fields(ofTextLine: line).map { Set($0.keys) } == ["request_id"])
        #expect(Self.render("user signed up", ["user.sub": "u-1"], json: false) == "2026-01-01T00:00:00Z info gatehouse: user signed up user.sub=u-1")
        // Escapes are readable and reversible: backslash and quote are escaped too.
        #expect(Self.render("a", ["v": "p\\q\"r\ns"], json: false).hasSuffix(#" v="p\\q\"r\ns""#))
    }

    @Test func jsonLinesEscapeEveryControlAndKeepTheValue() throws {
        for breaker in Self.breakers {
            let hostile = "refused\(breaker)\(Self.forged)"
            let line = Self.render(hostile, ["error.cause": .string("x\(breaker)y"), "message": "not the message"], json: true)
            Self.assertOneLine(line, "U+\(String(breaker.unicodeScalars.first!.value, radix: 16))")
            let object = try #require(try StrictJSONParser().parse(Array(line.utf8)).objectValue)
            #expect(object["message"]?.stringValue == hostile, "the escape means the same text")
            #expect(object["error.cause"]?.stringValue == "x\(breaker)y")
            #expect(object["level"]?.stringValue == "info" && object["logger"]?.stringValue == "gatehouse")
        }
    }

    /// A provider token whose header fields carry a forged line, sent to every endpoint that reads
    /// token headers: nothing of the header's text reaches a log message or metadata value.
    @Test func providerTokenHeadersNeverReachTheLog() async throws {
        try await FakeIssuer.run { issuer in
            let capture = LogCapture()
            let (app, _) = try await TestApp.social(issuer: issuer, logger: capture.logger(level: .trace))
            try await app.router { client in
                let claims = issuer.standardClaims(.google, audience: Clients.googleWeb, subject: "g-1", email: "a@gmail.com")
                let appleClaims = issuer.standardClaims(.apple, audience: Clients.appleBundle, subject: "a-1", email: "a@icloud.com")
                let headers: [[String: JSONValue?]] = [
                    ["alg": .string("RS256" + Self.forged)], ["kid": .string("k" + Self.forged)],
                    ["alg": .string("HS256" + Self.forged), "kid": .string(Self.forged), "typ": .string(Self.forged)],
                    ["kid": .string(Self.forged), "typ": .string("JWT" + Self.forged)],
                ]
                for header in headers {
                    let google = try await SocialVerificationTests.google(client, issuer.token(.google, claims: claims, header: header))
                    #expect(google.status == .unauthorized)
                    let apple = try await SocialVerificationTests.apple(client, issuer.token(.apple, claims: appleClaims, header: header))
                    #expect(apple.status == .unauthorized)
                    let me = try await client.send(.get, "/me", bearer: issuer.token(.google, claims: claims, header: header))
                    #expect(me.status == .unauthorized)
                }
            }
            let lines = capture.allLines
            #expect(lines.contains { $0.contains("request refused") }, "the refusals were logged")
            for line in lines {
                #expect(!line.contains("FORGED") && !line.contains("user.sub=admin"), "\(line)")
                #expect(!line.contains("\n") && !line.contains("\r"), "\(line)")
            }
        }
    }
}
