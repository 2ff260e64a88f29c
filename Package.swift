// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gatehouse",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex
    // Only the server is a product: the library targets are used by nothing outside this package (the
    // Swift SDK is its own package, Clients/GatehouseClient).
    products: [
        .executable(name: "gatehouse", targets: ["gatehouse"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.86.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
    ],
    targets: [
        // Hand-written infrastructure (JSON, JWS, locks, the hashing pool, entropy, OpenSSL signing), `package` access only.
        .target(
            name: "GatehouseInfrastructure",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "GatehouseCore",
            dependencies: [
                "GatehouseInfrastructure",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [
                // Which country a number is in (the SMS allow list), with its sources and date in the file.
                .embedInCode("Resources/Phone/country-prefixes.tsv")
            ]
        ),
        // Messages: rendering mail (MIME, RFC 2047, templates) and texts, the delivery queue's dispatcher and
        // channels, and the outbox senders; the core only queues a MailRequest or an SMSRequest.
        .target(
            name: "GatehouseMessaging",
            dependencies: [
                "GatehouseCore", "GatehouseInfrastructure",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [
                // The built-in mail templates, embedded at build time (GATEHOUSE_MAIL_TEMPLATES may replace any of them).
                .embedInCode("Resources/Mail/confirm_signup.subject.mustache"),
                .embedInCode("Resources/Mail/confirm_signup.text.mustache"),
                .embedInCode("Resources/Mail/confirm_signup.html.mustache"),
                .embedInCode("Resources/Mail/reset_password.subject.mustache"),
                .embedInCode("Resources/Mail/reset_password.text.mustache"),
                .embedInCode("Resources/Mail/reset_password.html.mustache"),
                .embedInCode("Resources/Mail/already_registered.subject.mustache"),
                .embedInCode("Resources/Mail/already_registered.text.mustache"),
                .embedInCode("Resources/Mail/already_registered.html.mustache"),
                .embedInCode("Resources/Mail/password_changed.subject.mustache"),
                .embedInCode("Resources/Mail/password_changed.text.mustache"),
                .embedInCode("Resources/Mail/password_changed.html.mustache"),
                .embedInCode("Resources/Mail/confirm_email_change.subject.mustache"),
                .embedInCode("Resources/Mail/confirm_email_change.text.mustache"),
                .embedInCode("Resources/Mail/confirm_email_change.html.mustache"),
                .embedInCode("Resources/Mail/email_changed.subject.mustache"),
                .embedInCode("Resources/Mail/email_changed.text.mustache"),
                .embedInCode("Resources/Mail/email_changed.html.mustache"),
                .embedInCode("Resources/Mail/email_in_use.subject.mustache"),
                .embedInCode("Resources/Mail/email_in_use.text.mustache"),
                .embedInCode("Resources/Mail/email_in_use.html.mustache"),
                .embedInCode("Resources/Mail/test.subject.mustache"),
                .embedInCode("Resources/Mail/test.text.mustache"),
                .embedInCode("Resources/Mail/test.html.mustache"),
                // The texts, one template per SMSRequest.Kind.
                .embedInCode("Resources/SMS/phone_sign_in.text.mustache"),
                .embedInCode("Resources/SMS/link_phone.text.mustache"),
            ]
        ),
        // The system's SQLite (libsqlite3-dev), which the store drives through its C API: the server links this SQLite
        // library only (sqlite-nio's copy is in the microbenchmark alone, as the library it is measured against).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // One SQLite connection through the C API, and nothing else: this target must not import sqlite-nio, whose
        // header declares the same C structs.
        .target(name: "GatehouseSQLite", dependencies: ["CSQLite"]),
        .target(
            name: "GatehouseStore",
            dependencies: [
                "GatehouseCore", "GatehouseInfrastructure", "GatehouseSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .target(
            name: "GatehouseAWS",
            dependencies: [
                "GatehouseMessaging",
                "GatehouseCore", "GatehouseInfrastructure",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // An SMTP client (STARTTLS or implicit TLS, AUTH, a small connection pool) on SwiftNIO: no SMTP package is available.
        .target(
            name: "GatehouseSMTP",
            dependencies: [
                "GatehouseMessaging",
                "GatehouseCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The types swift-openapi-generator derives from the contract (openapi.yaml), `package` access. Generated
        // once and committed by scripts/generate-openapi.sh (CI checks that regenerating changes nothing), so a
        // build never builds the generator.
        .target(
            name: "GatehouseAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            exclude: ["openapi-generator-config.yaml"]
        ),
        .target(
            name: "GatehouseServer",
            dependencies: [
                "GatehouseAPI", "GatehouseCore", "GatehouseInfrastructure", "GatehouseStore", "GatehouseAWS", "GatehouseSMTP",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [
                // Embedded at build time: a copied `gatehouse` binary serves the contract and the web page on its own.
                .embedInCode("Resources/openapi.yaml"),
                .embedInCode("Resources/Web/index.html"),
                .embedInCode("Resources/Web/app.js"),
                .embedInCode("Resources/Web/qr.js"),
                .embedInCode("Resources/Web/app.css"),
                .embedInCode("Resources/Web/webauthn-json.js"),
                .embedInCode("Resources/Web/hosted-passkey.js"),
                .embedInCode("Resources/HostedUI/page.mustache"),
            ]
        ),
        .executableTarget(
            name: "gatehouse",
            dependencies: [
                "GatehouseMessaging",
                "GatehouseServer", "GatehouseCore", "GatehouseStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Library against hand-written, one labelled measurement per piece: `swift run -c release gatehouse-microbench`.
        .executableTarget(
            name: "gatehouse-microbench",
            dependencies: [
                "GatehouseCore", "GatehouseInfrastructure", "GatehouseSQLite",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            path: "Benchmarks/Microbench"
        ),
        .target(
            name: "GatehouseTesting",
            dependencies: [
                "GatehouseMessaging",
                "GatehouseCore", "GatehouseInfrastructure", "GatehouseStore", "GatehouseSMTP", "GatehouseAWS",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "GatehouseCoreTests",
            dependencies: [
                "GatehouseCore", "GatehouseInfrastructure", "GatehouseTesting",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "GatehouseMessagingTests",
            dependencies: ["GatehouseMessaging", "GatehouseCore", "GatehouseInfrastructure", "GatehouseTesting"]
        ),
        .testTarget(
            name: "GatehouseSMTPTests",
            dependencies: [
                "GatehouseMessaging",
                "GatehouseSMTP", "GatehouseCore", "GatehouseTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "GatehouseAWSTests",
            dependencies: [
                "GatehouseMessaging",
                "GatehouseAWS", "GatehouseCore", "GatehouseInfrastructure", "GatehouseTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "GatehouseStoreTests",
            dependencies: [
                "GatehouseCore", "GatehouseStore", "GatehouseInfrastructure", "GatehouseSQLite", "GatehouseTesting",
                .product(name: "Logging", package: "swift-log"), .product(name: "SQLKit", package: "sql-kit"),
            ]
        ),
        .testTarget(
            name: "GatehousePoolTests",
            dependencies: [
                "GatehouseMessaging", "GatehouseServer", .product(name: "HummingbirdTesting", package: "hummingbird"),
                "GatehouseCore", "GatehouseInfrastructure", "GatehouseStore", "GatehouseTesting", .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ]
        ),
        .testTarget(
            name: "GatehouseServerTests",
            dependencies: [
                "GatehouseMessaging",
                "GatehouseServer", "GatehouseCore", "GatehouseInfrastructure", "GatehouseStore", "GatehouseAWS", "GatehouseSMTP",
                "GatehouseTesting", "GatehouseAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            exclude: ["Scripts"]
        ),  // Python helpers the tests run by path (PyJWT, openapi-spec-validator)
    ]
)

// One set of Swift settings for every target, as Hummingbird's own Package.swift has: existential
// types spelled `any`. (MemberImportVisibility was tried and left off: the release build then takes
// Glibc's `stat` for a member of CDispatch and refuses it, where the debug build compiles.)
let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSwiftSettings
}
