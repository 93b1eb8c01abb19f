// name: rank_values
// mode: read
// Every value of one analytics property that `kg rank --write` stored on the papers (for a
// distribution plot); no rows when the property was never written.
// param property: str  the property, e.g. 'pagerank'
MATCH (p:Paper)
WHERE p[$property] IS NOT NULL
RETURN toFloat(p[$property]) AS value
