import Crypto
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseSQLite
import NIOPosix
import SQLiteNIO
import Synchronization
import _CryptoExtras

/// Microbenchmarks of the hand-written infrastructure against the library that could replace it,
/// one labelled pair per piece, on this workload (the sizes and shapes of a sign-in), in this
/// process, on this machine. Run in release: `swift run -c release gatehouse-microbench`.
/// The labels (`rsa-sign`, `jws-verify`, …) are what the pieces' doc comments cite.
@main
struct Microbench {
    static func main() async throws {
        let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let key = SigningKey(kid: "bench", use: .accessToken, privateKey: privateKey, createdAt: Date())
        let input = Array(String(repeating: "x", count: 700).utf8)
        let digest = SHA256.hash(data: input)

        section("rsa-sign")  // SystemOpenSSL vs swift-crypto (BoringSSL)
        let boring = try Bench.rate("swift-crypto _RSA sign (library)") { _ = try privateKey.signature(for: digest, padding: .insecurePKCS1v1_5) }
        let ours = try Bench.rate("SigningKey.sign (\(key.signerName))") { _ = try key.sign(input) }
        Bench.ratio("rsa-sign", ours, boring)
        let ecKey = try SigningKey.generate(use: .accessToken, kid: "bench-es", now: Date(), algorithm: .es256)
        _ = try Bench.rate("SigningKey.sign ES256 (boringssl), for comparison") { _ = try ecKey.sign(input) }

        section("jws-verify")  // CompactJWS + JWSKeySet; jwt-kit's figures: /work/shared/notes/swift-building-blocks.md §2
        let signature = try privateKey.signature(for: digest, padding: .insecurePKCS1v1_5)
        let publicKey = privateKey.publicKey
        let raw = Bench.rate("swift-crypto RS256 verify alone") {
            _ = publicKey.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5)
        }
        let keys = JWSKeySet([.init(kid: "bench", publicKey: publicKey)])
        let token = try CompactJWS.encode(header: ["alg": "RS256", "kid": "bench"], claims: ["sub": "x", "exp": 9_999_999_999]) { try key.sign($0) }
        let jws = try Bench.rate("CompactJWS parse + JWSKeySet verify") { try keys.verify(try CompactJWS(parsing: token)) }
        Bench.ratio("jws-verify (share of raw verify)", jws, raw)

        section("json-parse")  // StrictJSONParser vs JSONSerialization, a sign-in body
        let body = Array(
            #"{"email":"someone@example.com","password":"correct horse battery staple","client_id":"web"}"#.utf8
        )
        let bodyData = Data(body)
        let foundation = try Bench.rate("JSONSerialization.jsonObject (library)") { _ = try JSONSerialization.jsonObject(with: bodyData) }
        let strict = try Bench.rate("StrictJSONParser.parse") { _ = try StrictJSONParser().parse(body) }
        Bench.ratio("json-parse", strict, foundation)

        section("json-write")  // JSONObjectWriter vs JSONSerialization and JSONEncoder, a token response
        let access = String(repeating: "a", count: 800)
        let foundationWrite = try Bench.rate("JSONSerialization.data (library)") {
            let response: [String: Any] = ["access_token": access, "token_type": "Bearer", "expires_in": 900, "refresh_token": access]
            _ = try JSONSerialization.data(withJSONObject: response)
        }
        let writer = Bench.rate("JSONObjectWriter") {
            var out = JSONObjectWriter()
            out.string("access_token", access)
            out.string("token_type", "Bearer")
            out.integer("expires_in", 900)
            out.string("refresh_token", access)
            _ = out.finish()
        }
        Bench.ratio("json-write", writer, foundationWrite)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let encoded = try Bench.rate("JSONEncoder, one reused (library)") {
            _ = Array(try encoder.encode(BenchTokenAnswer(accessToken: access, tokenType: "Bearer", expiresIn: 900, refreshToken: access)))
        }
        Bench.ratio("json-write (JSONEncoder)", writer, encoded)

        section("entropy")  // EntropyPool vs SystemRandomNumberGenerator, the 32-byte values of a sign-in
        let system = Bench.rate("SystemRandomNumberGenerator 32 bytes (library)") {
            var generator = SystemRandomNumberGenerator()
            _ = (0..<4).map { _ in generator.next() as UInt64 }
        }
        let pooled = Bench.rate("EntropyPool 32 bytes") { _ = EntropyPool.shared.bytes(32) }
        Bench.ratio("entropy", pooled, system)

        section("mutex")  // Synchronization.Mutex alone, and in the reference box the code base uses
        let library = Synchronization.Mutex(0)
        let standard = Bench.rate("Synchronization.Mutex (library)") { library.withLock { $0 += 1 } }
        let boxed = LockedBox(0)
        let box = Bench.rate("LockedBox over Synchronization.Mutex") { boxed.withLock { $0 += 1 } }
        Bench.ratio("mutex", box, standard)

        section("blocking-pool")  // BlockingWorkPool (lanes, bounds) vs NIOThreadPool.runIfActive, a no-op job
        let niopool = NIOThreadPool(numberOfThreads: 1)
        niopool.start()
        let nio = try await Bench.rateAsync("NIOThreadPool.runIfActive (library)") { _ = try await niopool.runIfActive { 1 } }
        let pool = BlockingWorkPool(label: "bench", width: 1).start()
        let lanes = try await Bench.rateAsync("BlockingWorkPool.run(lane:)") { _ = try await pool.run(lane: "client") { 1 } }
        Bench.ratio("blocking-pool", lanes, nio)
        try await niopool.shutdownGracefully()

        section("sqlite-read")  // the store's in-place connection (system libsqlite3) vs sqlite-nio's public SQLiteConnection
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("microbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bench.sqlite").path
        let direct = try DirectSQLiteConnection(path: path)
        try direct.execute("PRAGMA journal_mode = WAL", []) { _ in }
        try direct.execute("CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL)", []) { _ in }
        for index in 0..<1000 {
            try direct.execute("INSERT INTO users VALUES (?, ?)", [.text("u\(index)"), .text("u\(index)@example.com")]) { _ in }
        }
        let directRate = try Bench.rate("DirectSQLiteConnection (system libsqlite3)") {
            try direct.execute("SELECT email FROM users WHERE id = ?", [.text("u500")]) { _ in }
        }
        direct.close()
        // Its own file: two SQLite libraries must never open the same database in one process.
        let nioConnection = try await SQLiteConnection.open(storage: .file(path: directory.appendingPathComponent("nio.sqlite").path))
        _ = try await nioConnection.query("PRAGMA journal_mode = WAL")
        _ = try await nioConnection.query("CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL)")
        for index in 0..<1000 {
            _ = try await nioConnection.query("INSERT INTO users VALUES (?, ?)", [SQLiteData.text("u\(index)"), .text("u\(index)@example.com")])
        }
        let nioRate = try await Bench.rateAsync("SQLiteNIO SQLiteConnection.query (library)") {
            _ = try await nioConnection.query("SELECT email FROM users WHERE id = ?", [SQLiteData.text("u500")])
        }
        try await nioConnection.close()
        Bench.ratio("sqlite-read", directRate, nioRate)

        section("scrypt")
        let hasher = ScryptPasswordHasher(parameters: .owasp, pool: pool)
        let started = Date()
        for _ in 0..<3 { _ = try await hasher.hash("correct horse 9") }
        print(String(format: "  %@ %10.0f ms per hash", "scrypt N=2^17 r=8 p=1" as NSString, Date().timeIntervalSince(started) / 3 * 1000))
    }

    static func section(_ label: String) {
        print("\n[\(label)]")
    }
}
