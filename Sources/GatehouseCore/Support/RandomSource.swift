import Foundation
import GatehouseInfrastructure

/// Where the core gets randomness: a CSPRNG in production, a seeded source in tests.
public protocol RandomSource: Sendable {
    /// `count` random bytes; every secret (keys, codes, tokens, salts) comes from here.
    func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's CSPRNG, read in 4 KiB blocks (see ``EntropyPool``).
public struct SystemRandomSource: RandomSource {
    /// Creates a source; every instance reads the one shared pool.
    public init() {}

    /// `count` bytes from the operating system's CSPRNG.
    /// - Parameter count: How many bytes.
    /// - Returns: The bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        EntropyPool.shared.bytes(count)
    }
}

extension RandomSource {
    /// A uniformly distributed integer in `0..<upperBound` (rejection sampling, no modulo bias).
    package func uniform(below upperBound: UInt32) -> UInt32 {
        precondition(upperBound > 0)
        let limit = UInt32.max - (UInt32.max % upperBound)
        while true {
            let b = bytes(4)
            let value = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
            if value < limit { return value % upperBound }
        }
    }

    /// A six-digit numeric code, zero-padded.
    func sixDigitCode() -> String {
        let value = uniform(below: 1_000_000)
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// `count` random bytes as unpadded base64url.
    /// - Parameter count: Random bytes to draw (32 gives 256 bits).
    /// - Returns: ⌈4·count/3⌉ characters of `[A-Za-z0-9_-]`.
    public func token(bytes count: Int) -> String {
        Base64URL.encode(bytes(count))
    }

    /// A random RFC 4122 version 4 UUID in lowercase, the shape of Cognito's `sub`.
    /// - Returns: 36 characters: 122 random bits in `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`.
    public func uuid() -> String {
        var b = bytes(16)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return Self.format(uuid: b)
    }

    /// A time-ordered RFC 9562 version 7 UUID in lowercase: the milliseconds of `date`, then 74
    /// random bits. Rows keyed by these land at the end of their index instead of on a random page,
    /// so a commit touches fewer pages. Use it only where the creation time is no secret (a
    /// session's id travels in tokens that carry `auth_time` anyway).
    /// - Parameter date: The creation time whose Unix milliseconds lead the id.
    /// - Returns: 36 characters, lowercase hex with hyphens.
    public func uuidV7(at date: Date) -> String {
        var b = bytes(16)
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        for index in 0..<6 { b[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - UInt64(index)))) }
        b[6] = (b[6] & 0x0F) | 0x70
        b[8] = (b[8] & 0x3F) | 0x80
        return Self.format(uuid: b)
    }

    private static func format(uuid b: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (index, byte) in b.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
