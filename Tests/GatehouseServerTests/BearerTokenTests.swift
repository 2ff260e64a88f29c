import Testing

@testable import GatehouseServer

/// `BearerToken.parse` reads the `Authorization` value of every protected request through its UTF-8
/// bytes; it must answer exactly as the `Substring.UTF8View` version it replaced.
@Suite("Bearer token parsing")
struct BearerTokenTests {
    /// The previous implementation, kept as the reference.
    static func reference(_ header: String) -> String? {
        var bytes = Substring(header).utf8[...]
        while bytes.first == UInt8(ascii: " ") { bytes = bytes.dropFirst() }
        while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
        guard bytes.count > 7 else { return nil }
        let scheme = bytes.prefix(6)
        guard zip(scheme, "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }), bytes.dropFirst(6).first == UInt8(ascii: " ") else { return nil }
        var token = bytes.dropFirst(7)
        while token.first == UInt8(ascii: " ") { token = token.dropFirst() }
        guard !token.isEmpty, !token.contains(UInt8(ascii: " ")) else { return nil }
        return String(Substring(token))
    }

    static let headers = [
        "Bearer abc", "bearer abc", "BEARER abc", "BeArEr abc", "  Bearer   abc  ", "Bearer", "Bearer ", "Bearer  ", "Bearer a",
        "Bearerabc", "Bearer\tabc", "Basic abcdefgh", "Bearer a b", "Bearer ab c ", "", " ", "        ", "Bearer é.ü.ß", "Bearer 🙂🙂",
        "Béarer abc", "bearer\u{0}abc", "Bearer abc\u{0}", String(repeating: "x", count: 2_000), "Bearer " + String(repeating: "y", count: 4_000),
        "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "Bearer 7 ", "BEARER\u{20}\u{20}token", "Token abcdefgh",
    ]

    @Test(arguments: headers)
    func answersAsTheReference(_ header: String) {
        #expect(BearerToken.parse(header) == Self.reference(header), "\(header.prefix(40))")
    }

    @Test func readsTheToken() {
        #expect(BearerToken.parse("  bearer   a.b.c ") == "a.b.c")
        #expect(BearerToken.parse("Bearer a b") == nil)
        #expect(BearerToken.parse("Bearer   ") == nil)
        #expect(BearerToken.parse("Bearer@abc") == nil)
    }
}
