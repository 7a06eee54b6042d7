"""Word lists of the synthetic stand-in corpus (invented text, no real document content).

Topics give each synthetic document a vocabulary; conditions are section
headings and entity phrases, each with a home topic ("generic" for headings
any report may carry) and optional hand aliases.  Nothing here is copied
from the CrossPage corpus; the labels are ordinary report vocabulary.
"""

WB_TOPICS = {
    "energy": "electricity grid tariff generation transmission utility solar hydropower capacity megawatt distribution fuel subsidy renewable outage metering",
    "health": "clinic hospital immunization maternal nutrition disease outbreak vaccine surveillance mortality nurses pharmaceutical screening referral sanitation",
    "education": "school teachers enrollment curriculum learning literacy classroom textbooks examination scholarship tertiary vocational pupils attendance assessment",
    "agriculture": "farmers irrigation crop yield livestock seed fertilizer harvest extension rural smallholder drought cooperative market storage",
    "transport": "road corridor highway rail port freight traffic bridge maintenance logistics vehicle transit terminal paving axle",
    "water": "water supply sewerage basin aquifer reservoir treatment pipeline wastewater catchment flood drainage hygiene connection abstraction",
    "finance": "credit banking lending deposit liquidity capital insurance remittance microfinance interest collateral portfolio payment exchange bond",
    "governance": "ministry reform audit procurement transparency budget decentralization civil service accountability legislation judiciary oversight registry municipal",
    "social": "households transfers poverty vulnerable pension safety net beneficiaries targeting cash labor informal gender youth disability",
    "urban": "city housing land zoning slum municipal transit density upgrading waste services planning neighborhood property resilience",
    "climate": "emissions carbon adaptation mitigation forest biodiversity coastal resilience warming disaster hazard adaptation ecosystem restoration monitoring",
    "trade": "exports imports tariffs customs competitiveness value chains logistics firms investment manufacturing border standards quotas diversification",
}

PMC_TOPICS = {
    "oncology": "tumor carcinoma chemotherapy metastasis biopsy lesion radiotherapy survival staging malignant cohort cytotoxic receptor mutation",
    "cardiology": "cardiac arterial hypertension stroke myocardial ventricular lipid statin coronary ejection infarction rhythm vascular pressure",
    "infectious": "pathogen infection antibiotic resistance viral bacterial transmission incidence serology isolates host antimicrobial inoculation strain",
    "genomics": "genome sequencing variant expression transcript allele locus cohort methylation phenotype assay protein pathway knockout",
}

GENERIC_WORDS = (
    "the of and to in for on with by from as is are was were be this that these which "
    "project program report analysis results data country government support level "
    "period increase decrease figure table annex total average share percent million "
    "implementation component activities outcome indicators baseline target year review "
    "policy development framework approach sector national regional local capacity"
).split()

# Section headings: (label, home topic, aliases)
SECTIONS = [
    ("Executive Summary", "generic", ["Summary for Decision Makers"]),
    ("Acknowledgments", "generic", ["Acknowledgements"]),
    ("Abbreviations and Acronyms", "generic", ["List of Acronyms"]),
    ("Country Context", "generic", ["National Context"]),
    ("Sectoral and Institutional Context", "generic", ["Sector Context"]),
    ("Project Development Objectives", "generic", ["Development Objective"]),
    ("Results Framework", "generic", ["Results Monitoring Framework"]),
    ("Monitoring and Evaluation", "generic", ["M&E Arrangements"]),
    ("Implementation Arrangements", "generic", ["Institutional Arrangements"]),
    ("Risk Assessment", "generic", ["Key Risks"]),
    ("Economic Analysis", "generic", ["Economic and Financial Analysis"]),
    ("Financial Management", "generic", ["Fiduciary Arrangements"]),
    ("Procurement Plan", "governance", ["Procurement Arrangements"]),
    ("Environmental and Social Safeguards", "generic", ["Safeguard Policies"]),
    ("Grievance Mechanism", "social", ["Grievance Redress Mechanism"]),
    ("Resettlement Policy Framework", "urban", ["Resettlement Framework"]),
    ("Stakeholder Engagement", "generic", ["Consultation and Participation"]),
    ("Gender Analysis", "social", ["Gender Assessment"]),
    ("Lessons Learned", "generic", ["Lessons from Experience"]),
    ("Theory of Change", "generic", ["Results Chain"]),
    ("Cost Estimates", "generic", ["Project Costs"]),
    ("Sustainability", "generic", ["Sustainability of Outcomes"]),
    ("Debt Sustainability Analysis", "finance", ["Debt Sustainability"]),
    ("Fiscal Outlook", "finance", ["Fiscal Framework"]),
    ("Macroeconomic Framework", "finance", ["Macroeconomic Outlook"]),
    ("Tariff Reform", "energy", ["Tariff Adjustment"]),
    ("Power Sector Overview", "energy", ["Electricity Sector Overview"]),
    ("Health Financing", "health", ["Financing for Health"]),
    ("Disease Surveillance", "health", ["Surveillance System"]),
    ("Learning Outcomes", "education", ["Student Learning"]),
    ("Teacher Management", "education", ["Teacher Policy"]),
    ("Irrigation Development", "agriculture", ["Irrigation Schemes"]),
    ("Land Tenure", "agriculture", ["Land Rights"]),
    ("Road Asset Management", "transport", ["Road Maintenance Strategy"]),
    ("Traffic Safety", "transport", ["Road Safety"]),
    ("Water Resources Management", "water", ["Integrated Water Resources"]),
    ("Service Delivery", "water", ["Utility Performance"]),
    ("Financial Inclusion", "finance", ["Access to Finance"]),
    ("Public Financial Management", "governance", ["PFM Reform"]),
    ("Anticorruption Measures", "governance", ["Integrity Framework"]),
    ("Social Protection Systems", "social", ["Safety Net Systems"]),
    ("Targeting Methodology", "social", ["Beneficiary Targeting"]),
    ("Urban Planning", "urban", ["Spatial Planning"]),
    ("Municipal Finance", "urban", ["Local Government Finance"]),
    ("Climate Risk Screening", "climate", ["Climate Vulnerability"]),
    ("Greenhouse Gas Accounting", "climate", ["GHG Accounting"]),
    ("Disaster Risk Management", "climate", ["Disaster Preparedness"]),
    ("Trade Facilitation", "trade", ["Border Management"]),
    ("Investment Climate", "trade", ["Business Environment"]),
    ("Value Chain Analysis", "trade", ["Value Chain Assessment"]),
    ("Methods", "pmc", ["Materials and Methods"]),
    ("Statistical Analysis", "pmc", ["Statistical Methods"]),
    ("Conflict of Interest", "pmc", ["Competing Interests"]),
    ("Data Availability", "pmc", ["Availability of Data"]),
    ("Ethics Statement", "pmc", ["Ethical Approval"]),
    ("Limitations", "pmc", ["Study Limitations"]),
    ("Supplementary Material", "pmc", ["Supplementary Data"]),
    ("Author Contributions", "pmc", ["Contributions"]),
]

_COUNTRIES = (
    "Kenya Ethiopia Nigeria Ghana Uganda Tanzania Rwanda Senegal Malawi Zambia Mozambique "
    "Bangladesh Nepal Pakistan Vietnam Indonesia Philippines Cambodia Mongolia Myanmar "
    "Peru Colombia Bolivia Honduras Haiti Guatemala Paraguay Ecuador Jamaica "
    "Morocco Tunisia Egypt Jordan Lebanon Yemen Iraq Armenia Georgia Moldova Ukraine "
    "Albania Serbia Uzbekistan Kyrgyz Tajikistan Madagascar Niger Mali Chad Sudan"
).split()

_ENTITY_EXTRA = [
    ("COVID-19", "health", ["Covid 19", "coronavirus disease 2019"]),
    ("Sanctions", "governance", ["sanctions regime"]),
    ("International Monetary Fund", "finance", []),
    ("Global Partnership for Education", "education", []),
    ("Green Climate Fund", "climate", []),
    ("African Development Bank", "finance", []),
    ("Asian Development Bank", "finance", []),
    ("Sustainable Development Goals", "generic", ["SDGs"]),
    ("Paris Agreement", "climate", []),
    ("Universal Health Coverage", "health", []),
    ("Conditional Cash Transfer", "social", []),
    ("Public-Private Partnership", "generic", ["PPP"]),
    ("Independent Power Producer", "energy", []),
    ("Feed-in Tariff", "energy", []),
    ("Malaria", "health", ["malaria control"]),
    ("Tuberculosis", "health", ["TB"]),
    ("HIV/AIDS", "health", ["HIV"]),
    ("El Nino", "climate", ["El Niño"]),
    ("Locust Outbreak", "agriculture", ["desert locust"]),
    ("Mobile Money", "finance", []),
    ("Land Registry", "urban", []),
    ("Value Added Tax", "governance", ["VAT"]),
    ("Single Window", "trade", []),
    ("Rules of Origin", "trade", []),
    ("Bus Rapid Transit", "transport", ["BRT"]),
    ("Rural Electrification", "energy", []),
    ("School Feeding", "education", []),
    ("Early Childhood Development", "education", ["ECD"]),
    ("Stunting", "health", ["child stunting"]),
    ("Cholera", "health", []),
    ("Drought Insurance", "agriculture", []),
    ("Mangrove Restoration", "climate", []),
    ("Fiscal Deficit", "finance", []),
    ("Exchange Rate Regime", "finance", []),
    ("Inflation Targeting", "finance", []),
    ("Refugees", "social", ["displaced persons"]),
    ("Gender-Based Violence", "social", ["GBV"]),
    ("Child Labor", "social", []),
    ("Informal Settlements", "urban", []),
    ("Solid Waste", "urban", []),
    ("Groundwater Depletion", "water", []),
    ("Non-Revenue Water", "water", ["NRW"]),
    ("Randomized Controlled Trial", "pmc", ["RCT"]),
    ("Kaplan-Meier", "pmc", ["Kaplan Meier curves"]),
    ("Odds Ratio", "pmc", []),
    ("Confidence Interval", "pmc", []),
    ("Institutional Review Board", "pmc", ["IRB"]),
    ("Cox Regression", "pmc", ["proportional hazards"]),
    ("Meta-Analysis", "pmc", []),
    ("Polymerase Chain Reaction", "pmc", ["PCR"]),
]

_PMC_TOPIC_ENTITIES = {
    "oncology": ["Breast Cancer", "Lung Adenocarcinoma", "Immunotherapy", "PD-L1", "Tumor Microenvironment"],
    "cardiology": ["Atrial Fibrillation", "Heart Failure", "Statin Therapy", "Echocardiography", "Troponin"],
    "infectious": ["Antimicrobial Resistance", "Influenza", "Sepsis", "Vaccine Efficacy", "Hepatitis B"],
    "genomics": ["CRISPR", "RNA Sequencing", "Genome-Wide Association", "Single Nucleotide Polymorphism", "Gene Expression"],
}

_WB_TOPIC_ENTITIES = {
    "energy": ["Hydropower Plant", "Solar Home Systems", "Power Purchase Agreement", "Grid Code", "Energy Efficiency"],
    "health": ["Community Health Workers", "Essential Medicines", "Maternal Mortality", "Health Management Information System", "Immunization Coverage"],
    "education": ["Teacher Training", "Secondary Enrollment", "Learning Poverty", "Textbook Distribution", "Girls Education"],
    "agriculture": ["Smallholder Farmers", "Seed Systems", "Livestock Vaccination", "Crop Insurance", "Agricultural Extension"],
    "transport": ["Axle Load Control", "Rural Roads", "Port Concession", "Railway Rehabilitation", "Road Fund"],
    "water": ["Water User Associations", "Wastewater Treatment", "Flood Protection", "Dam Safety", "Handwashing"],
    "finance": ["Central Bank", "Credit Guarantee", "Remittances", "Microfinance Institutions", "Deposit Insurance"],
    "governance": ["Supreme Audit Institution", "E-Procurement", "Civil Service Reform", "Open Budget", "Decentralization"],
    "social": ["Cash Transfers", "Social Registry", "Public Works", "Pension Reform", "Youth Employment"],
    "urban": ["Slum Upgrading", "Property Tax", "Urban Resilience", "Affordable Housing", "Municipal Bonds"],
    "climate": ["Nationally Determined Contribution", "Carbon Pricing", "Forest Carbon", "Early Warning Systems", "Coastal Erosion"],
    "trade": ["Special Economic Zones", "Export Diversification", "Customs Modernization", "Trade Corridors", "Foreign Direct Investment"],
}


_CITIES = tuple(c.strip() for c in (
    "Nairobi; Mombasa; Addis Ababa; Lagos; Kano; Accra; Kumasi; Kampala; Dar es Salaam; Kigali; Dakar; Lilongwe; "
    "Lusaka; Maputo; Dhaka; Chittagong; Kathmandu; Karachi; Lahore; Hanoi; Jakarta; Surabaya; Manila; Cebu; "
    "Phnom Penh; Ulaanbaatar; Yangon; Lima; Arequipa; Bogota; Medellin; La Paz; Tegucigalpa; Port-au-Prince; "
    "Asuncion; Quito; Kingston; Casablanca; Tunis; Cairo; Alexandria; Amman; Beirut; Sanaa; Baghdad; Yerevan; "
    "Tbilisi; Chisinau; Kyiv; Tirana; Belgrade; Tashkent; Bishkek; Dushanbe; Antananarivo; Niamey; Bamako; Khartoum"
).split(";"))

# common-vocabulary entity phrases per topic (their words also occur in ordinary prose)
_TOPIC_PHRASES = {
    "energy": ["Mini-Grid", "Transmission Line", "Off-Grid Solar", "Energy Access", "Power Outages", "Gas Pipeline"],
    "health": ["Primary Health Care", "Hospital Beds", "Vaccine Supply", "Health Insurance", "Nutrition Program",
               "Disease Outbreak"],
    "education": ["School Grants", "Exam Results", "Vocational Training", "Classroom Construction", "Student Loans",
                  "Teacher Salaries"],
    "agriculture": ["Irrigation Canals", "Crop Yields", "Farmer Groups", "Grain Storage", "Fertilizer Subsidy",
                    "Livestock Markets"],
    "transport": ["Road Maintenance", "Bus Services", "Freight Corridor", "Port Capacity", "Bridge Repair",
                  "Traffic Congestion"],
    "water": ["Water Tariffs", "Sanitation Coverage", "Flood Risk", "Water Utility", "Drainage Works", "Rural Water"],
    "finance": ["Bank Lending", "Interest Rates", "Capital Markets", "Payment Systems", "Credit Bureau", "Pension Fund"],
    "governance": ["Budget Execution", "Audit Findings", "Tax Administration", "Civil Registration", "Court Reform",
                   "Local Elections"],
    "social": ["Poverty Line", "Household Survey", "Social Assistance", "Labor Market", "Child Benefits",
               "Disability Grants"],
    "urban": ["Land Use", "Housing Finance", "Street Lighting", "Waste Collection", "Urban Transport",
              "City Budget"],
    "climate": ["Carbon Emissions", "Forest Cover", "Heat Waves", "Coastal Protection", "Climate Finance",
                "Drought Risk"],
    "trade": ["Export Growth", "Import Duties", "Trade Agreement", "Customs Revenue", "Border Crossing",
              "Logistics Costs"],
}


def entity_table():
    """All entity conditions as (label, topic, aliases), in a fixed order."""
    out = list(_ENTITY_EXTRA)
    for name in _COUNTRIES:
        out.append((name, "generic", []))
    for name in _CITIES:
        out.append((name, "generic", []))
    for topic in sorted(_TOPIC_PHRASES):
        for name in _TOPIC_PHRASES[topic]:
            out.append((name, topic, []))
    for topic in sorted(_WB_TOPIC_ENTITIES):
        for name in _WB_TOPIC_ENTITIES[topic]:
            out.append((name, topic, []))
    for topic in sorted(_PMC_TOPIC_ENTITIES):
        for name in _PMC_TOPIC_ENTITIES[topic]:
            out.append((name, "pmc", []))
    return out


# Syllables for per-document invented vocabulary (project names, place names).
SYLLABLES = "ka lo mi ra ven tu sa dor bel ni quo zan fe ri mar tal o ba sen ul gra phi dex mo".split()


# ---- paraphrase and prose vocabulary (docs/stand-in.md#page-text) ---------------------------------------
# A fact page may state a condition in other words than its label: a synonym for a label word, or a
# reordered "B of A" for a two-word label.  The construction miner matches only the label and the catalog
# aliases, so a fact stated only in a paraphrase is missed by construction (a label error the audit can find).
SYNONYMS = {
    "summary": "overview", "assessment": "appraisal", "analysis": "review", "management": "administration",
    "framework": "structure", "plan": "schedule", "measures": "actions", "objectives": "aims",
    "arrangements": "provisions", "context": "background", "evaluation": "appraisal", "monitoring": "tracking",
    "mechanism": "procedure", "engagement": "consultation", "lessons": "insights", "learned": "drawn",
    "estimates": "projections", "outlook": "prospects", "reform": "overhaul", "overview": "profile",
    "financing": "funding", "surveillance": "monitoring", "outcomes": "results", "development": "expansion",
    "safety": "security", "resources": "assets", "delivery": "provision", "inclusion": "access",
    "protection": "support", "systems": "schemes", "methodology": "approach", "planning": "zoning",
    "screening": "appraisal", "accounting": "reporting", "facilitation": "simplification",
    "climate": "environment", "methods": "procedures", "limitations": "caveats", "statement": "declaration",
    "contributions": "roles", "availability": "access", "material": "content", "sustainability": "durability",
    "transfer": "payment", "insurance": "cover", "restoration": "rehabilitation", "depletion": "decline",
    "settlements": "neighborhoods", "waste": "refuse", "violence": "abuse", "labor": "work",
    "regression": "model", "ratio": "odds", "interval": "range", "trial": "study",
}
_SMALL = {"and", "of", "the", "for", "to", "on", "in", "a"}


def paraphrases(label):
    """Other wordings of a label (deterministic): every label word with a synonym replaced, and for a
    two-word label its reordered "B of A" form.  Proper names (labels without a known word) have none.

    >>> paraphrases("Risk Assessment")
    ['Risk Appraisal', 'Assessment of Risk']
    >>> paraphrases("Kenya")
    []
    """
    words = label.split()
    out = []
    swapped = [SYNONYMS.get(w.lower(), w) for w in words]
    if [w.lower() for w in swapped] != [w.lower() for w in words]:
        out.append(" ".join(s.capitalize() if w[:1].isupper() and s != w else s for w, s in zip(words, swapped)))
    if len(words) == 2 and not any(w.lower() in _SMALL for w in words) and words[0].isalpha() and words[1].isalpha():
        out.append("%s of %s" % (words[1], words[0]))
    return out


def label_words(labels):
    """The ordinary words of condition labels (lower case, no short words or digits), sorted: the
    vocabulary documents also use in plain prose, so that a label's words occur where its condition does not."""
    out = set()
    for label in labels:
        for word in label.lower().replace("-", " ").replace("/", " ").split():
            if word.isalpha() and len(word) > 3 and word not in _SMALL:
                out.add(word)
    return sorted(out)
