import EngramTestSupport

/// A private bus whose activatable services are given, so D-Bus activation is real (see `PrivateBus(services:)`).
typealias ActivationBus = PrivateBus
