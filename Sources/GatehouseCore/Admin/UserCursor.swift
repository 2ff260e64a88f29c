import Foundation
import GatehouseInfrastructure

/// A position in the user list: the last listed user's creation time (whole seconds, as stored) and
/// sub. Users are listed by (creation time, sub), so a user signing up while an operator pages lands
/// after the position (it is newer) and no page repeats or skips one.
public struct UserCursor: Sendable, Equatable {
    /// The last listed user's creation time.
    public var createdAt: Date
    /// The last listed user's sub.
    public var sub: String

    /// A position.
    /// - Parameters:
    ///   - createdAt: The last listed user's creation time.
    ///   - sub: The last listed user's sub.
    public init(createdAt: Date, sub: String) {
        self.createdAt = createdAt
        self.sub = sub
    }

    /// The opaque cursor the API hands out: base64url of `<seconds>:<sub>`.
    public var encoded: String {
        Base64URL.encode(Array("\(Int64(createdAt.timeIntervalSince1970)):\(sub)".utf8))
    }

    /// Reads a cursor the API handed out.
    /// - Parameter encoded: The opaque cursor.
    /// - Returns: The position, or `nil` for anything that is not one.
    public init?(encoded: String) {
        guard encoded.utf8.count <= 200, let bytes = Base64URL.decode(encoded), let text = String(bytes: bytes, encoding: .utf8) else {
            return nil
        }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = Int64(parts[0]), seconds >= 0, !parts[1].isEmpty, parts[1].utf8.count <= 128,
            parts[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        self.init(createdAt: Date(timeIntervalSince1970: TimeInterval(seconds)), sub: String(parts[1]))
    }
}
