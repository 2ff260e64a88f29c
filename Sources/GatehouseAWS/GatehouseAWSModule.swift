// The Cognito provider (SigV4 signer, Cognito JSON client) lives here; see issue 4.
enum GatehouseAWSModule {}
