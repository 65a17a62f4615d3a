#!/usr/bin/env python
# coding: utf-8
# A notebook exported as a script (`jupyter nbconvert --to script`): helper functions and a helper
# class, a first draft of the filter, then the filter meant, with the notebook's test calls between.

# In[1]:


import numpy as np

import antares.devkit as dk

dk.init()


# In[2]:


def detections(locus):
    """(mjd, mag, band) of the locus' detections."""
    rows = [(a.mjd, a.properties['ant_mag'], a.properties['ant_passband'])
            for a in locus.alerts if 'ant_mag' in a.properties]
    return rows


class BandSummary:
    """Not a filter: a helper the filters share."""

    def __init__(self, rows):
        self.by_band = {}
        for mjd, mag, band in rows:
            self.by_band.setdefault(band, []).append((mjd, mag))

    def brightening(self, band):
        points = sorted(self.by_band.get(band, []))
        return len(points) >= 2 and points[-1][1] < points[0][1] - 0.3


# In[3]:


class DraftBrightening(dk.Filter):
    OUTPUT_TAGS = [{'name': 'nb_draft_brightening', 'description': 'first try'}]

    def run(self, locus):
        if BandSummary(detections(locus)).brightening('g'):
            locus.tag('nb_draft_brightening')


# In[4]:


report = dk.run_filter(DraftBrightening)
print(report['new_tags'])


# In[5]:


class Brightening(dk.Filter):
    NAME = 'Brightening in the triggering band'
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'nb_bands', 'type': 'int', 'description': 'bands with detections'}]
    OUTPUT_TAGS = [{'name': 'nb_brightening', 'description': 'brighter by 0.3 mag since the first detection'}]

    def run(self, locus):
        summary = BandSummary(detections(locus))
        locus.properties['nb_bands'] = len(summary.by_band)
        if summary.brightening(locus.alert.properties['ant_passband']):
            locus.tag('nb_brightening')


# In[6]:


print(dk.run_many(Brightening, n=3)['n'], np.__name__)
