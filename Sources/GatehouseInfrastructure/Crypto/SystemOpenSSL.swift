import Crypto
import Foundation
import _CryptoExtras

#if canImport(Glibc)
import Glibc
#endif

/// RS256 signing through the operating system's OpenSSL 3, loaded at run time when present.
///
/// RSA signing is the main cost of every sign-in, refresh and social exchange. On Linux, OpenSSL 3
/// signs RSA-2048 about twice as fast as BoringSSL (swift-crypto) on CPUs with AVX-512 IFMA, because
/// it carries a vectorised modular exponentiation BoringSSL lacks. The library is loaded with
/// `dlopen` (no headers, no build dependency); every key is checked once — a signature made here must
/// verify with swift-crypto — and anything missing or failing falls back to swift-crypto.
/// `GATEHOUSE_RSA_SIGNER=boringssl` turns it off.
///
/// Kept: 2.08x swift-crypto's `_RSA` signing on this project's AVX-512 IFMA machine (Benchmarks/Microbench
/// `rsa-sign`).
package final class SystemOpenSSL: @unchecked Sendable {
    typealias D2IAutoPrivateKey =
        @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?
    typealias CtxNew = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    typealias CtxInt = @convention(c) (OpaquePointer?) -> Int32
    typealias CtxSetInt = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias CtxSetMD = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias GetMD = @convention(c) () -> OpaquePointer?
    typealias Sign = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>, UnsafePointer<UInt8>?, Int) -> Int32
    typealias Free = @convention(c) (OpaquePointer?) -> Void

    let d2iAutoPrivateKey: D2IAutoPrivateKey
    let ctxNew: CtxNew
    let signInit: CtxInt
    let setPadding: CtxSetInt
    let setSignatureMD: CtxSetMD
    let sha256: GetMD
    let sign: Sign
    let ctxFree: Free
    let pkeyFree: Free

    /// The loaded library, or `nil` (not Linux, not installed, disabled, or missing a symbol).
    package static let shared: SystemOpenSSL? = load()

    static func load() -> SystemOpenSSL? {
        #if os(Linux)
        if ProcessInfo.processInfo.environment["GATEHOUSE_RSA_SIGNER"]?.lowercased() == "boringssl" { return nil }
        guard let library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, _: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let d2i = symbol("d2i_AutoPrivateKey", D2IAutoPrivateKey.self),
            let ctxNew = symbol("EVP_PKEY_CTX_new", CtxNew.self),
            let signInit = symbol("EVP_PKEY_sign_init", CtxInt.self),
            let setPadding = symbol("EVP_PKEY_CTX_set_rsa_padding", CtxSetInt.self),
            let setMD = symbol("EVP_PKEY_CTX_set_signature_md", CtxSetMD.self),
            let sha256 = symbol("EVP_sha256", GetMD.self),
            let sign = symbol("EVP_PKEY_sign", Sign.self),
            let ctxFree = symbol("EVP_PKEY_CTX_free", Free.self),
            let pkeyFree = symbol("EVP_PKEY_free", Free.self)
        else {
            dlclose(library)
            return nil
        }
        return SystemOpenSSL(
            d2i: d2i,
            ctxNew: ctxNew,
            signInit: signInit,
            setPadding: setPadding,
            setMD: setMD,
            sha256: sha256,
            sign: sign,
            ctxFree: ctxFree,
            pkeyFree: pkeyFree
        )
        #else
        return nil
        #endif
    }

    private init(
        d2i: @escaping D2IAutoPrivateKey,
        ctxNew: @escaping CtxNew,
        signInit: @escaping CtxInt,
        setPadding: @escaping CtxSetInt,
        setMD: @escaping CtxSetMD,
        sha256: @escaping GetMD,
        sign: @escaping Sign,
        ctxFree: @escaping Free,
        pkeyFree: @escaping Free
    ) {
        self.d2iAutoPrivateKey = d2i
        self.ctxNew = ctxNew
        self.signInit = signInit
        self.setPadding = setPadding
        self.setSignatureMD = setMD
        self.sha256 = sha256
        self.sign = sign
        self.ctxFree = ctxFree
        self.pkeyFree = pkeyFree
    }

    /// An OpenSSL copy of `key` that signs RS256, or `nil` if it cannot be made or fails the check.
    package func signer(for key: _RSA.Signing.PrivateKey) -> RS256OpenSSLSigner? {
        let der = Array(key.derRepresentation)
        let pkey: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2iAutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let pkey else { return nil }
        let signer = RS256OpenSSLSigner(library: self, pkey: pkey)
        // The self-check: a signature made here must verify with swift-crypto.
        let digest = SHA256.hash(data: Array("gatehouse openssl self-check".utf8))
        guard let signature = signer.sign(digest: Array(digest)),
            key.publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: .insecurePKCS1v1_5)
        else { return nil }
        return signer
    }
}

/// One RSA private key held by OpenSSL, signing SHA-256 digests with PKCS #1 v1.5 padding.
///
/// Setting up a signing context (fetching the provider's RSA signature and SHA-256, setting the
/// padding) cost about as much per signature as 5% of the RSA operation itself; contexts are set up
/// once and kept for reuse (as `openssl speed` does), each used by one signature at a time.
package final class RS256OpenSSLSigner: @unchecked Sendable {
    let library: SystemOpenSSL
    let pkey: OpaquePointer
    /// Contexts ready to sign, not in use. At most `maxIdle` are kept.
    private let idle = LockedBox<[OpaquePointer]>([])
    package static let maxIdle = 16
    /// OpenSSL's `RSA_PKCS1_PADDING` (RS256 is RSASSA-PKCS1-v1_5).
    static let pkcs1Padding: Int32 = 1

    init(library: SystemOpenSSL, pkey: OpaquePointer) {
        self.library = library
        self.pkey = pkey
    }

    deinit {
        for ctx in idle.withLock({ $0 }) { library.ctxFree(ctx) }
        library.pkeyFree(pkey)
    }

    /// Contexts currently kept for reuse (for tests).
    package var idleContexts: Int { idle.withLock { $0.count } }

    private func makeContext() -> OpaquePointer? {
        guard let ctx = library.ctxNew(pkey, nil) else { return nil }
        guard library.signInit(ctx) == 1, library.setPadding(ctx, Self.pkcs1Padding) == 1,
            library.setSignatureMD(ctx, library.sha256()) == 1
        else {
            library.ctxFree(ctx)
            return nil
        }
        return ctx
    }

    /// The signature of a 32-byte SHA-256 digest, or `nil` if OpenSSL refused.
    package func sign(digest: [UInt8]) -> [UInt8]? {
        guard let ctx = idle.withLock({ $0.popLast() }) ?? makeContext() else { return nil }
        var output = [UInt8](repeating: 0, count: 512)
        var length = output.count
        let rc = output.withUnsafeMutableBufferPointer { out in
            digest.withUnsafeBufferPointer { library.sign(ctx, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        // A context that failed is not trusted again.
        let keep =
            rc == 1
            && idle.withLock { contexts in
                guard contexts.count < Self.maxIdle else { return false }
                contexts.append(ctx)
                return true
            }
        if !keep { library.ctxFree(ctx) }
        guard rc == 1 else { return nil }
        return Array(output.prefix(length))
    }
}
