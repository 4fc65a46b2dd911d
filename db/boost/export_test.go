package boost

// InPostsTx is inPostsTx, for the tests of the lock it takes.
var InPostsTx = inPostsTx
