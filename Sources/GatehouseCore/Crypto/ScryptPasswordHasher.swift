import Crypto
import Foundation
import GatehouseInfrastructure
import _CryptoExtras

/// scrypt (swift-crypto's `_CryptoExtras`) with PHC-style strings: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`.
///
/// The default parameters are OWASP's and ASVS 5.0's (N = 2^17, r = 8, p = 1: about 128 MiB and a few
/// hundred milliseconds per hash). Tests lower `logN`; the stored string records the parameters so a
/// hash made with weaker ones is upgraded at the next successful sign-in.
public struct ScryptPasswordHasher: PasswordHasher {
    /// scrypt's cost parameters, as recorded in each PHC string.
    public struct Parameters: Sendable, Equatable {
        /// log2 of N, the CPU and memory cost (17: N = 131 072).
        public var logN: Int
        /// The block size; memory per hash is about 128·r·N bytes.
        public var r: Int
        /// The parallelism; multiplies the work.
        public var p: Int

        /// Creates parameters; the defaults are ``owasp``.
        /// - Parameters:
        ///   - logN: log2 of N.
        ///   - r: The block size.
        ///   - p: The parallelism.
        public init(logN: Int = 17, r: Int = 8, p: Int = 1) {
            self.logN = logN
            self.r = r
            self.p = p
        }

        /// OWASP's and ASVS 5.0's: N = 2^17, r = 8, p = 1 (about 128 MiB per hash).
        public static let owasp = Parameters()

        /// Memory one hash holds (the `maxMemory` scrypt is given).
        public var memoryBytes: Int { 128 * r * (1 << logN) * p + 128 * r * p + 256 * r + 1 << 20 }
    }

    /// The parameters new hashes are made with; a stored hash with weaker ones ``needsRehash(_:)``.
    public let parameters: Parameters
    /// Passwords longer than this many UTF-8 bytes are refused before hashing (a cap on hashing cost).
    static let maxPasswordBytes = 1024
    private let pool: BlockingWorkPool
    private let random: any RandomSource
    private static let outputLength = 32

    /// Creates the hasher.
    /// - Parameters:
    ///   - parameters: The cost of new hashes.
    ///   - pool: The bounded worker pool the hashing runs on, off the event loop, with per-lane caps.
    ///   - random: The 16-byte salts.
    package init(parameters: Parameters = .owasp, pool: BlockingWorkPool, random: any RandomSource = SystemRandomSource()) {
        self.parameters = parameters
        self.pool = pool
        self.random = random
    }

    /// Hashes `password` with a fresh 16-byte salt on the worker pool.
    /// - Parameters:
    ///   - password: The password; its UTF-8 bytes are hashed as sent.
    ///   - lane: Who the work is for, or `nil`.
    /// - Returns: `$scrypt$ln=…,r=…,p=…$<salt>$<hash>`: unpadded base64, a 32-byte hash.
    /// - Throws: The pool's refusal (503 `unavailable`, 429 `too_many_requests`), `CancellationError`,
    ///   or scrypt's error.
    public func hash(_ password: String, lane: String?) async throws -> String {
        let salt = random.bytes(16)
        let parameters = self.parameters
        let derived = try await pool.run(lane: lane) {
            try Self.derive(Array(password.utf8), salt: salt, parameters: parameters)
        }
        return "$scrypt$ln=\(parameters.logN),r=\(parameters.r),p=\(parameters.p)$"
            + Data(salt).base64EncodedString().trimmingCharacters(in: ["="]) + "$"
            + Data(derived).base64EncodedString().trimmingCharacters(in: ["="])
    }

    /// Derives with the stored salt and parameters and compares in constant time.
    /// - Parameters:
    ///   - password: The password, exactly as sent.
    ///   - hash: A PHC string made by ``hash(_:lane:)``.
    ///   - lane: Who the work is for, or `nil`.
    /// - Returns: Whether they match; `false` also for a string this hasher cannot parse (no work done).
    /// - Throws: The pool's refusal, `CancellationError`, or scrypt's error.
    public func verify(_ password: String, against hash: String, lane: String?) async throws -> Bool {
        guard let stored = Self.parse(hash) else { return false }
        let derived = try await pool.run(lane: lane) {
            try Self.derive(Array(password.utf8), salt: stored.salt, parameters: stored.parameters)
        }
        return ConstantTime.equals(derived, stored.hash)
    }

    /// Derives once with the current parameters and a random salt, so an unknown account costs as much
    /// time as a known one.
    /// - Parameters:
    ///   - password: The password, exactly as sent.
    ///   - lane: Who the work is for, or `nil`.
    /// - Throws: The pool's refusal, `CancellationError`, or scrypt's error.
    public func verifyDummy(_ password: String, lane: String?) async throws {
        let salt = random.bytes(16)
        let parameters = self.parameters
        _ = try await pool.run(lane: lane) { try Self.derive(Array(password.utf8), salt: salt, parameters: parameters) }
    }

    /// Asks the worker pool whether it would take work for `lane` now.
    /// - Parameter lane: Who the work is for, or `nil`.
    /// - Throws: 503 `unavailable` (queue full) or 429 `too_many_requests` (the lane at its cap).
    public func checkAdmission(lane: String?) throws {
        try pool.checkAdmission(lane: lane)
    }

    /// Whether `hash` should be replaced at the next successful sign-in.
    /// - Parameter hash: A stored PHC string.
    /// - Returns: `true` when any parameter is below the current ones, or the string is not ours.
    public func needsRehash(_ hash: String) -> Bool {
        guard let stored = Self.parse(hash) else { return true }
        return stored.parameters.logN < parameters.logN || stored.parameters.r < parameters.r
            || stored.parameters.p < parameters.p
    }

    static func derive(_ password: [UInt8], salt: [UInt8], parameters: Parameters) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: password,
            salt: salt,
            outputByteCount: outputLength,
            rounds: 1 << parameters.logN,
            blockSize: parameters.r,
            parallelism: parameters.p,
            maxMemory: parameters.memoryBytes
        )
        return key.withUnsafeBytes { Array($0) }
    }

    struct Stored {
        var parameters: Parameters
        var salt: [UInt8]
        var hash: [UInt8]
    }

    static func parse(_ phc: String) -> Stored? {
        let fields = phc.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { return nil }
        var parameters = Parameters(logN: 0, r: 0, p: 0)
        for pair in fields[2].split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, let value = Int(kv[1]), value > 0 else { return nil }
            switch kv[0] {
            case "ln": parameters.logN = value
            case "r": parameters.r = value
            case "p": parameters.p = value
            default: return nil
            }
        }
        guard (1...24).contains(parameters.logN), (1...32).contains(parameters.r), (1...16).contains(parameters.p),
            let salt = decodeUnpaddedBase64(fields[3]), let hash = decodeUnpaddedBase64(fields[4]), !hash.isEmpty
        else { return nil }
        return Stored(parameters: parameters, salt: salt, hash: hash)
    }

    private static func decodeUnpaddedBase64(_ text: Substring) -> [UInt8]? {
        var padded = String(text)
        while padded.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map { Array($0) }
    }
}
