// name: gds_version
// mode: read
// The version of the Graph Data Science plugin. Fails with an unknown-function error
// when the server does not have GDS, which is how the analytics tell it is absent.
RETURN gds.version() AS version
