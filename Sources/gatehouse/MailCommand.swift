import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseServer

/// `gatehouse mail …`: mail operations.
struct MailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail",
        abstract: "Mail operations.",
        subcommands: [Test.self]
    )

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send one test message through the configured transport (GATEHOUSE_MAIL) now; exit 1 if it fails."
        )
        @OptionGroup var common: CommonOptions

        @Argument(help: "Where to send it.")
        var address: String

        func run() async throws {
            try await reportingConfigurationErrors {
                let configuration = try common.configuration()
                let logger = common.logger(configuration)
                do {
                    for line in try await MailTest.send(to: address, configuration: configuration, logger: logger) { print(line) }
                } catch let error as DeliveryError {
                    FileHandle.standardError.write(Data("error: the message was not sent: \(error)\n".utf8))
                    throw ExitCode.failure
                }
            }
        }
    }
}
