#!/usr/bin/env python
# coding: utf-8

# A notebook of the 2019 devkit exported as it is (jupyter nbconvert --to script): the devkit's own
# helpers run at load, with alerts known by number, a mock locus, and the stage called directly.

# In[1]:


import antares.dev_kit as dk
dk.init()


# In[2]:


def bright_flare(locus_data):
    p = locus_data.get_properties()
    if p.get('ztf_magpsf') is not None and p['ztf_magpsf'] < 16.0 and p.get('ztf_isdiffpos') == 't':
        locus_data.send_to_stream('nb2019_bright_flare')


# In[3]:


fake_alert_id = dk.mock_locus(150.0, 2.0, [{'ztf_magpsf': 15.2, 'ztf_isdiffpos': 't', 'ztf_fid': 1}])
result = dk.run_stage(fake_alert_id, bright_flare)
print('mock streams', sorted(result['new_streams']))


# In[4]:


alert_ids = sorted(set(dk.get_alert_ids(3) + [31544]))
results = dk.run_many(bright_flare, alert_ids=alert_ids)
print('ran', results['n'], 'numbered alerts')


# In[5]:


ld = dk.get_locus_data(fake_alert_id)
bright_flare(ld)
print('direct call tags', ld.tags)
