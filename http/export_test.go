package httpapi

// PresetBrowseIDs is presetBrowseIDs, for the plan tests of package
// httpapi_test: the statement each shape of filters goes to.
var PresetBrowseIDs = presetBrowseIDs
