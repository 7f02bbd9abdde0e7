/// One method of an exported interface: its name, argument types and handler.
public struct DBusMethod: Sendable {
    /// How a method produces its reply.
    enum Body: Sendable {
        /// Runs on the bus thread and returns the reply values.
        case sync(@Sendable (DBusMethodCall) throws -> [DBusValue])
        /// Runs in a task; the reply is sent when it returns.
        case async(@Sendable (DBusMethodCall) async throws -> [DBusValue])
        /// Runs on the bus thread and replies later, from any thread, through the reply handle.
        case deferred(@Sendable (DBusMethodCall, DBusDeferredReply) -> Void)
    }

    /// The method name.
    public let name: String
    /// The input arguments.
    public let inArguments: [DBusArgument]
    /// The output arguments.
    public let outArguments: [DBusArgument]
    let body: Body

    /// The signature a call must have.
    public var inSignature: DBusSignature { DBusArgument.signature(of: inArguments) }
    /// The signature of the reply.
    public var outSignature: DBusSignature { DBusArgument.signature(of: outArguments) }

    /// A method whose handler runs on the bus thread and returns the reply values.
    ///
    /// Keep it quick: the bus thread serves every other call while it waits.
    public init(_ name: String, in inSignature: DBusSignature = .empty, out outSignature: DBusSignature = .empty,
                handler: @escaping @Sendable (DBusMethodCall) throws -> [DBusValue]) {
        self.init(name, DBusArgument.unnamed(inSignature), DBusArgument.unnamed(outSignature), .sync(handler))
    }

    /// A method with named arguments whose handler runs on the bus thread and returns the reply values.
    public init(_ name: String, in inArguments: KeyValuePairs<String, DBusSignature>,
                out outArguments: KeyValuePairs<String, DBusSignature> = [:],
                handler: @escaping @Sendable (DBusMethodCall) throws -> [DBusValue]) {
        self.init(name, DBusArgument.named(inArguments), DBusArgument.named(outArguments), .sync(handler))
    }

    /// A method whose handler runs in its own task, so slow work never holds up the bus.
    public init(_ name: String, in inSignature: DBusSignature = .empty, out outSignature: DBusSignature = .empty,
                asyncHandler: @escaping @Sendable (DBusMethodCall) async throws -> [DBusValue]) {
        self.init(name, DBusArgument.unnamed(inSignature), DBusArgument.unnamed(outSignature), .async(asyncHandler))
    }

    /// A method with named arguments whose handler runs in its own task.
    public init(_ name: String, in inArguments: KeyValuePairs<String, DBusSignature>,
                out outArguments: KeyValuePairs<String, DBusSignature> = [:],
                asyncHandler: @escaping @Sendable (DBusMethodCall) async throws -> [DBusValue]) {
        self.init(name, DBusArgument.named(inArguments), DBusArgument.named(outArguments), .async(asyncHandler))
    }

    /// A method that replies later: the handler keeps the reply handle and answers from any thread.
    public init(_ name: String, in inSignature: DBusSignature = .empty, out outSignature: DBusSignature = .empty,
                deferredHandler: @escaping @Sendable (DBusMethodCall, DBusDeferredReply) -> Void) {
        self.init(name, DBusArgument.unnamed(inSignature), DBusArgument.unnamed(outSignature), .deferred(deferredHandler))
    }

    /// A method with named arguments that replies later through the reply handle.
    public init(_ name: String, in inArguments: KeyValuePairs<String, DBusSignature>,
                out outArguments: KeyValuePairs<String, DBusSignature> = [:],
                deferredHandler: @escaping @Sendable (DBusMethodCall, DBusDeferredReply) -> Void) {
        self.init(name, DBusArgument.named(inArguments), DBusArgument.named(outArguments), .deferred(deferredHandler))
    }

    /// A method with argument lists built at run time (e.g. from a catalog) that replies later through the reply handle.
    public init(_ name: String, arguments inArguments: [DBusArgument], results outArguments: [DBusArgument],
                deferredHandler: @escaping @Sendable (DBusMethodCall, DBusDeferredReply) -> Void) {
        self.init(name, inArguments, outArguments, .deferred(deferredHandler))
    }

    private init(_ name: String, _ inArguments: [DBusArgument], _ outArguments: [DBusArgument], _ body: Body) {
        self.name = name
        self.inArguments = inArguments
        self.outArguments = outArguments
        self.body = body
    }
}
