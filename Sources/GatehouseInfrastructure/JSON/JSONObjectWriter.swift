import Foundation

/// Writes one JSON object member by member, in the order given, straight into bytes. For the hot
/// paths (token claims, token responses) where building a ``JSONValue`` dictionary first would only
/// cost allocations.
///
/// Kept: 58x `JSONSerialization.data` on a token response (Benchmarks/Microbench `json-write`), and
/// against Foundation's `JSONEncoder` on `Encodable` structs of the same members (release build,
/// 2026-11-27, five runs of 100,000): the five bodies of one token exchange (two JWS headers, the ID
/// and access claims, the token answer) take 4.1 µs here and 18.7 µs through one reused encoder, so
/// the writer saves ≈ 15 µs of the exchange's ≈ 920 µs of server CPU (1.6 %; 0.03 of its 1.84
/// multiple of two RSA signatures, the gate BENCHMARKS.md tracks). GET /me does not use it: its body is encoded
/// once per profile by the server's `ContractEncoder` (over the type generated from openapi.yaml) and cached.
package struct JSONObjectWriter: Sendable {
    private var bytes: [UInt8]
    private var first = true

    package init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    private mutating func key(_ name: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        JSONValue.writeString(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func string(_ name: String, _ value: String) {
        key(name)
        JSONValue.writeString(value, into: &bytes)
    }

    package mutating func integer(_ name: String, _ value: Int64) {
        key(name)
        bytes.append(contentsOf: Array(String(value).utf8))
    }

    package mutating func bool(_ name: String, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: Array((value ? "true" : "false").utf8))
    }

    package mutating func strings(_ name: String, _ values: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONValue.writeString(value, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes any JSON value (a hook's extra claim), serialised with sorted keys.
    package mutating func value(_ name: String, _ value: JSONValue) {
        key(name)
        bytes.append(contentsOf: value.serialized())
    }

    package mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
