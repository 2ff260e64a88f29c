import Foundation
import GatehouseInfrastructure
import Testing

@testable import GatehouseCore

@Suite("Strict JSON parser")
struct StrictJSONParserTests {
    let parser = StrictJSONParser()

    func parse(_ text: String) throws -> JSONValue { try parser.parse(Array(text.utf8)) }

    @Test func parsesEveryValueKind() throws {
        let value = try parse(#"{"s":"a\"b\\c\u00e9\ud83d\ude00","n":-12.5e2,"i":1795316257,"t":true,"f":false,"z":null,"a":[1,[2],{}]}"#)
        guard case .object(let o) = value else {
            Issue.record("not an object")
            return
        }
        #expect(o["s"] == .string("a\"b\\cé😀"))
        #expect(o["n"] == .number(-1250))
        #expect(o["i"]?.int64Value == 1_795_316_257)
        #expect(o["t"] == .bool(true))
        #expect(o["z"] == .null)
        #expect(o["a"] == .array([1, [2], .object([:])]))
    }

    @Test(arguments: [
        #"{"a":1,"a":2}"#,  // duplicate member
        #"{"a":{"b":1,"b":1}}"#,  // nested duplicate
        #"{"a":1} x"#,  // trailing garbage
        #"{"a":01}"#,  // leading zero
        #"{"a":"\ud800"}"#,  // lone high surrogate
        #"{"a":"\udc00"}"#,  // lone low surrogate
        "{\"a\":\"\u{01}\"}",  // raw control character
        #"{"a":1,}"#,  // trailing comma
        #"{'a':1}"#,  // single quotes
        #"{"a":NaN}"#,
        #"{"a":1e999}"#,  // out of range
        "",
        #"{"a":"unterminated}"#,
    ])
    func refusesMalformedInput(_ text: String) {
        #expect(throws: StrictJSONParser.Failure.self) { try parse(text) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: StrictJSONParser.Failure.self) { try parser.parse([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]) }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(throws: StrictJSONParser.Failure.self) { try parse(deep) }
        #expect((try? StrictJSONParser(maxDepth: 64).parse(Array(deep.utf8))) != nil)
    }

    @Test func serialisesDeterministicallyAndRoundTrips() throws {
        let value: JSONValue = ["b": "x\n\"y\"\u{01}", "a": [1, .number(2.5), true, nil], "c": ["d": "é"]]
        let text = value.serializedString()
        #expect(text == #"{"a":[1,2.5,true,null],"b":"x\n\"y\"\u0001","c":{"d":"é"}}"#)
        #expect(try parse(text) == value)
    }

    @Test(arguments: ["eyJhbGciOiJSUzI1NiJ9.e30.sig", "plain text é ✓", "tab\there", "back\\slash", "quote\"d", "del\u{7F}", "", "x\u{1F}"])
    func escapesExactlyWhatJSONRequires(_ string: String) throws {
        // Plain strings are copied whole; anything with a quote, backslash or control character is escaped.
        let text = JSONValue.string(string).serializedString()
        let needsEscape = string.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\"" || $0 == "\\" }
        if !needsEscape { #expect(text == "\"" + string + "\"") }
        #expect(needsEscape == (text.utf8.count > string.utf8.count + 2))
        #expect(try parse(text) == .string(string))
    }
}

@Suite("Base64URL")
struct Base64URLTests {
    @Test func roundTripsEveryLength() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) % 256) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == bytes)
        }
    }

    /// The concrete overloads (for callers in other modules) and the generic ones agree with
    /// Foundation's base64 in the URL alphabet without padding, for every length and a non-contiguous
    /// collection.
    @Test func everyOverloadMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.encode(bytes[...]) == expected)
            #expect(Base64URL.encode(bytes.lazy.map { $0 }) == expected, "a collection without contiguous storage")
            #expect(Base64URL.decode(expected) == bytes)
            #expect(Base64URL.decode(Substring(expected)) == bytes)
        }
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]) && !ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2], [1, 2, 3]) && ConstantTime.equals([UInt8](), []))
    }

    @Test func refusesNonCanonicalInput() {
        #expect(Base64URL.decode("AB==") == nil)  // padding
        #expect(Base64URL.decode("A") == nil)  // impossible length
        #expect(Base64URL.decode("ab+/") == nil)  // standard alphabet
        #expect(Base64URL.decode("AQ") == [1])
        #expect(Base64URL.decode("AB") == nil)  // non-zero trailing bits
        #expect(Base64URL.decode("AF") == nil)  // non-zero trailing bits
    }
}
