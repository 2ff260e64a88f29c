import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseServer

/// `gatehouse webhooks …`: the endpoints signed webhooks go to.
struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks",
        abstract: "Add, list and remove webhook endpoints (Standard Webhooks: signed with a whsec_ secret shown once).",
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an endpoint and print its signing secret once.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The receiver's URL: https://, or http:// to a loopback host.") var url: String
        @Option(help: "Comma-separated events (\(WebhookEvent.allCases.map(\.rawValue).joined(separator: ", "))), or * for all.")
        var events: String

        func run() async throws {
            let (url, events) = (url, events)
            try await runOperatorAction(common) { administration in
                let (endpoint, secret) = try await administration.webhooks.add(url: url, events: try WebhookEvent.parse(list: events))
                return endpoint.id + "\t" + endpoint.url + "\n" + secret
                    + "\n(signing secret: shown once, store it now; receivers verify webhook-signature with it)"
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List endpoints: id, URL, events, created, state.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await runOperatorAction(common) { administration in
                let endpoints = try await administration.webhooks.endpoints()
                guard !endpoints.isEmpty else { return "No webhook endpoints." }
                return endpoints.map { endpoint in
                    [
                        endpoint.id, endpoint.url, endpoint.events.map(\.rawValue).joined(separator: ","),
                        "created " + ContractTimestamp.string(endpoint.createdAt),
                        endpoint.disabledAt.map { "removed " + ContractTimestamp.string($0) } ?? "live",
                    ].joined(separator: "\t")
                }.joined(separator: "\n")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an endpoint; what is queued for it is not sent.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The endpoint's id (from list).") var id: String

        func run() async throws {
            let id = id
            try await runOperatorAction(common) { administration in
                try await administration.webhooks.remove(id: id)
                return "Webhook endpoint \(id) removed."
            }
        }
    }
}
