import Crypto
import Foundation
import _CryptoExtras
import GatehouseInfrastructure

/// scrypt (swift-crypto's `_CryptoExtras`) with PHC-style strings: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`.
///
/// The default parameters are OWASP's and ASVS 5.0's (N = 2^17, r = 8, p = 1: about 128 MiB and a few
/// hundred milliseconds per hash). Tests lower `logN`; the stored string records the parameters so a
/// hash made with weaker ones is upgraded at the next successful sign-in.
public struct ScryptPasswordHasher: PasswordHasher {
    public struct Parameters: Sendable, Equatable {
        public var logN: Int
        public var r: Int
        public var p: Int

        public init(logN: Int = 17, r: Int = 8, p: Int = 1) {
            self.logN = logN
            self.r = r
            self.p = p
        }

        public static let owasp = Parameters()

        /// Memory one hash holds (the `maxMemory` scrypt is given).
        public var memoryBytes: Int { 128 * r * (1 << logN) * p + 128 * r * p + 256 * r + 1 << 20 }
    }

    public let parameters: Parameters
    /// Passwords longer than this many UTF-8 bytes are refused before hashing (a cap on hashing cost).
    public static let maxPasswordBytes = 1024
    private let pool: BlockingWorkPool
    private let random: any RandomSource
    private static let outputLength = 32

    package init(parameters: Parameters = .owasp, pool: BlockingWorkPool, random: any RandomSource = SystemRandomSource()) {
        self.parameters = parameters
        self.pool = pool
        self.random = random
    }

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

    public func verify(_ password: String, against hash: String, lane: String?) async throws -> Bool {
        guard let stored = Self.parse(hash) else { return false }
        let derived = try await pool.run(lane: lane) {
            try Self.derive(Array(password.utf8), salt: stored.salt, parameters: stored.parameters)
        }
        return ConstantTime.equals(derived, stored.hash)
    }

    public func verifyDummy(_ password: String, lane: String?) async throws {
        let salt = random.bytes(16)
        let parameters = self.parameters
        _ = try await pool.run(lane: lane) { try Self.derive(Array(password.utf8), salt: salt, parameters: parameters) }
    }

    public func checkAdmission(lane: String?) throws {
        try pool.checkAdmission(lane: lane)
    }

    public func needsRehash(_ hash: String) -> Bool {
        guard let stored = Self.parse(hash) else { return true }
        return stored.parameters.logN < parameters.logN || stored.parameters.r < parameters.r
            || stored.parameters.p < parameters.p
    }

    static func derive(_ password: [UInt8], salt: [UInt8], parameters: Parameters) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: password, salt: salt, outputByteCount: outputLength, rounds: 1 << parameters.logN,
            blockSize: parameters.r, parallelism: parameters.p, maxMemory: parameters.memoryBytes)
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
