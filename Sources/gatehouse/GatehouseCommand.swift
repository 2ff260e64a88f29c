import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseStore
import Logging

@main
struct GatehouseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatehouse",
        abstract: "Authentication backend for native and web apps.",
        discussion: "Settings come from GATEHOUSE_* environment variables and a .env file in the working directory.",
        subcommands: [
            Serve.self, Migrate.self, Keys.self, DoctorCommand.self, MailCommand.self, UsersCommand.self, AdminKeysCommand.self, AuditCommand.self,
            WebhooksCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}

/// Options every command shares.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "Data directory (overrides GATEHOUSE_DATA_DIR).")
    var dataDir: String?

    @Option(name: .long, help: "Path of a .env file to read.")
    var envFile: String = ".env"

    func configuration() throws -> GatehouseConfiguration {
        var configuration = try GatehouseConfiguration.fromEnvironment(DotEnv.environment(merging: envFile))
        if let dataDir { configuration.dataDirectory = dataDir }
        return configuration
    }

    func logger(_ configuration: GatehouseConfiguration) -> Logger {
        LoggingSystem.bootstrap { label in
            GatehouseLogHandler(label: label, level: configuration.logLevel, json: configuration.logFormat == .json)
        }
        return Logger(label: "gatehouse")
    }
}

/// Turns configuration mistakes into one readable line and exit status 1.
func reportingConfigurationErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ConfigurationError {
        FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
        throw ExitCode.failure
    } catch let error as GatehouseError {
        FileHandle.standardError.write(Data("error: \(error.cause ?? error.message)\n".utf8))
        throw ExitCode.failure
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP server (migrating the database first unless GATEHOUSE_AUTO_MIGRATE=false)."
    )

    @OptionGroup var common: CommonOptions

    @Option(name: .long, help: "Listen address (overrides GATEHOUSE_HTTP_HOST).")
    var host: String?

    @Option(name: .long, help: "Listen port (overrides GATEHOUSE_HTTP_PORT).")
    var port: Int?

    func run() async throws {
        try await reportingConfigurationErrors {
            var configuration = try common.configuration()
            if let host { configuration.host = host }
            if let port { configuration.port = port }
            let logger = common.logger(configuration)
            let built = try await buildApplication(configuration: configuration, logger: logger)
            try await built.app.runService()
        }
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var common: CommonOptions

    @Flag(help: "Only list the pending migrations.")
    var dryRun = false

    func run() async throws {
        try await reportingConfigurationErrors {
            let configuration = try common.configuration()
            let logger = common.logger(configuration)
            let location = try StoreLocation(url: configuration.resolvedDatabaseURL)
            let dryRun = self.dryRun
            let lines = try await location.withStore(logger: logger) { store in
                dryRun ? try await store.pendingMigrations() : try await store.migrate(logger: logger)
            }
            if lines.isEmpty {
                print("The database at \(location.redacted) is up to date.")
            } else {
                print((dryRun ? "Pending migrations:\n" : "Applied migrations:\n") + lines.map { "  \($0)" }.joined(separator: "\n"))
            }
        }
    }
}

struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Inspect or rotate the embedded pool's signing keys.",
        subcommands: [List.self, Rotate.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the signing keys.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await reportingConfigurationErrors {
                let configuration = try common.configuration()
                let logger = common.logger(configuration)
                let keys = try await KeyAdministration.list(configuration: configuration, logger: logger)
                print(keys.isEmpty ? "No signing keys yet (they are created when the server first starts)." : keys.joined(separator: "\n"))
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start signing with new keys. Old keys stay published until every token they signed has expired."
        )
        @OptionGroup var common: CommonOptions

        @Option(help: "Which key to rotate: id, access or both.")
        var use: String = "both"

        func run() async throws {
            try await reportingConfigurationErrors {
                let configuration = try common.configuration()
                let logger = common.logger(configuration)
                let uses: [SigningKey.Use]
                switch use {
                case "id": uses = [.idToken]
                case "access": uses = [.accessToken]
                case "both": uses = [.idToken, .accessToken]
                default: throw ConfigurationError("--use must be id, access or both.")
                }
                for line in try await KeyAdministration.rotate(uses: uses, configuration: configuration, logger: logger) { print(line) }
            }
        }
    }
}

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the configuration and what it points at (Cognito pool and app client, keys, issuer, mail); exit 1 on problems."
    )
    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await reportingConfigurationErrors {
            let configuration = try common.configuration()
            var logger = Logger(label: "gatehouse-doctor")
            logger.logLevel = .critical
            let report = await Doctor.run(configuration: configuration, logger: logger)
            print(report.rendered)
            if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
        }
    }
}
