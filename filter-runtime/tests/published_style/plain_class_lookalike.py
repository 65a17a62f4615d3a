# A filter-shaped class that subclasses no devkit base (a published "boolean return" variant):
# ANTARES loads no filter from it.
class ExtendedSourceCut:
    OUTPUT_TAGS = [{'name': 'es_extended', 'description': 'extended source'}]

    def run(self, locus) -> bool:
        return locus.alert.properties.get('extendednessMedian', 0) > 0.25
